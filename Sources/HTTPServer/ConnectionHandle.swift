/// An MHD connection pointer that tasks may carry. It is used only under the ``ServerCore``
/// rules: resumed only after being taken from the suspended set.
struct ConnectionHandle: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer
}
