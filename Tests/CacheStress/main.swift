// cache-stress: a process the PostFeedCache tests start, kill and run side by side.
//
//   cache-stress write  <dir> <size-limit-bytes>      store 0.5–4 MiB entries forever;
//                                                     prints "stored <key>" after each
//   cache-stress hammer <dir> <writer-id> <keys> <iterations>
//                                                     mixed store/storeFile/update/read on
//                                                     shared keys; prints a JSON summary
//   cache-stress full-disk <dir>                      stores under RLIMIT_FSIZE = 64 KiB;
//                                                     prints a JSON summary
//
// Exit status 0 on success, 2 on bad arguments, 1 when the cache itself failed.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first, arguments.count >= 2 else {
    StressOutput.fail("usage: cache-stress write|hammer|full-disk <dir> …", status: 2)
}
let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)

switch mode {
case "write":
    guard arguments.count == 3, let limit = Int(arguments[2]) else {
        StressOutput.fail("usage: cache-stress write <dir> <size-limit-bytes>", status: 2)
    }
    WriteLoop(directory: directory, sizeLimit: limit).run()
case "hammer":
    guard arguments.count == 5, let writer = Int(arguments[2]), let keys = Int(arguments[3]),
          let iterations = Int(arguments[4]) else {
        StressOutput.fail("usage: cache-stress hammer <dir> <writer-id> <keys> <iterations>", status: 2)
    }
    Hammer(directory: directory, writer: writer, keyCount: keys, iterations: iterations).run()
case "full-disk":
    FullDisk(directory: directory).run()
default:
    StressOutput.fail("unknown mode \(mode); use write, hammer or full-disk", status: 2)
}
