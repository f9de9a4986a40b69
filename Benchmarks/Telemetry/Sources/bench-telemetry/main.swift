import CoreMetrics
import Foundation
import Dispatch
import MetricsTestKit
import Synchronization
import Tracing

// What one `ImagePipeline.image(for:)` memory hit pays for telemetry: a span started and
// ended, a memory lookup counted and timed, a load counted and timed (LoadMetrics, as in
// the library). The baseline is the lookup itself: a Dictionary under a Mutex, as the
// memory layer takes. Median of 9 runs of 1,000,000 operations, one thread.

enum LoadKind: Int, CaseIterable, Sendable {
    case page, image
    var name: String { self == .page ? "page" : "image" }
}

enum CacheLayer: Int, CaseIterable, Sendable {
    case memory, disk, shared, network
    var name: String { ["memory", "disk", "shared", "network"][rawValue] }
    static let caches: [CacheLayer] = [.memory, .disk, .shared]
}

let operations = 1_000_000
let keys = (0..<1_000).map { "https://cdn.example.com/images/img-\($0).jpg" }
let table = Mutex(Dictionary(uniqueKeysWithValues: keys.map { ($0, [UInt8](repeating: 1, count: 16)) }))

@inline(never) func lookup(_ index: Int) -> Int {
    table.withLock { $0[keys[index % keys.count]]?.count ?? 0 }
}

func measure(_ body: (Int) -> Int) -> Double {
    var samples: [Double] = []
    var sink = 0
    for _ in 0..<9 {
        let start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<operations { sink &+= body(index) }
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(operations))
    }
    precondition(sink != 42)
    return samples.sorted()[samples.count / 2]
}

/// The telemetry of one memory hit, as `ImagePipeline.image(for:)` makes it: a span only
/// when something traces (`LoadTelemetry.traces`), the clock read only when a real factory
/// is bootstrapped (`LoadMetrics.now()`).
func instrumented(_ metrics: LoadMetrics, _ tracer: (any Tracer)?) -> (Int) -> Int {
    { index in
        let started = metrics.now()
        let span = tracer?.startSpan("postfeed.image.load", context: ServiceContext.current ?? .topLevel, ofKind: .client)
        let found = lookup(index)
        metrics.memoryHit(.image, started: started)
        if let span {
            if span.isRecording { span.attributes["postfeed.layer"] = "memory" }
            span.end()
        }
        return found
    }
}

let baseline = measure(lookup)
let nothing = measure(instrumented(LoadMetrics(factory: NOOPMetricsHandler.instance), nil))
let noopTracer = measure(instrumented(LoadMetrics(factory: NOOPMetricsHandler.instance), NoOpTracer()))
let test = measure(instrumented(LoadMetrics(factory: TestMetrics()), NoOpTracer()))
func row(_ what: String, _ value: Double) {
    let added = value == baseline ? "—" : String(format: "%.1f", value - baseline)
    print("| \(what) | \(String(format: "%.1f", value)) | \(added) |")
}
print("| what (one memory hit) | ns/op | added |")
print("|---|---|---|")
row("the lookup alone (Mutex + Dictionary)", baseline)
row("+ telemetry, nothing bootstrapped (the default)", nothing)
row("+ telemetry, a tracer that records nothing (NoOpTracer: span, context read)", noopTracer)
row("+ telemetry, TestMetrics recording every value, clock read", test)
