/// Stops the fuzzer with `message` when a property of the code under test does not hold, so that
/// libFuzzer keeps the input that broke it (a trap counts as a crash).
func require(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    fatalError("invariant failed: \(message())", file: file, line: line)
}

/// The fuzzer's input as bytes.
func inputBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
