// libFuzzer's entry point (`swift build --product ProtocolFuzzer --sanitize=fuzzer
// -Xswiftc -DFUZZING`): libFuzzer supplies main() and calls this once per input.

/// Runs one input through the protocol layer; returns 0 as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ProtocolFuzzSession.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
