import Glibc

/// The standard descriptors a caller closed (`postfeed list >&-`, `postfeed browse <&-`),
/// each held by `/dev/null` opened read-only before postfeed opens anything else, so that
/// no file, socket or runtime descriptor of postfeed's takes their number (the lowest free
/// one): without this, descriptor 1 became the concurrency runtime's eventfd, and a cache
/// file opened for writing could have been next. A closed stdout or stderr now fails its
/// writes ("cannot write to standard output: Bad file descriptor", the place kept), and a
/// closed stdin reads as the end of the keys.
enum StandardDescriptors {
    static func holdClosed() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 {
            let placeholder = open("/dev/null", O_RDONLY)
            guard placeholder >= 0 else { return }
            // The lowest free number is this one, the ones before it being open by now.
            if placeholder != descriptor {
                _ = dup2(placeholder, descriptor)
                _ = close(placeholder)
            }
        }
    }
}
