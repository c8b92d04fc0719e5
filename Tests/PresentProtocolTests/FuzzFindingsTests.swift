// What the protocol fuzzer (Tests/Fuzz, `make fuzz`) found, one regression test each.

import PresentJSON
import PresentProtocol
import Testing

@Suite("Fuzz findings")
struct FuzzFindingsTests {
    /// `{"style":"bottomHalf","":true}` was refused with `field: ""` — a path that names
    /// nothing (and reads like the whole params). Keys that are not plain names now appear
    /// as quoted subscripts.
    @Test func unknownKeysThatAreNotPlainNamesGetAnUnambiguousPath() throws {
        let decoder = RequestDecoder()
        func field(_ params: String, method: String = "present") throws -> String? {
            do {
                _ = try decoder.decode(method: method, params: try JSONValue.parse(params))
                return nil
            } catch let error as RPCError {
                #expect(error.code == .invalidParams)
                return error.data?["field"]?.stringValue
            }
        }
        #expect(try field(#"{"style":"bottomHalf","":true}"#) == #"params[""]"#)
        #expect(try field(#"{"style":"alert","a.b":1}"#) == #"params["a.b"]"#)
        #expect(try field(#"{"style":"alert","transition":{"type":"zoom","x y":1}}"#) == #"transition["x y"]"#)
        #expect(try field(#"{"style":"alert","transition":{"type":"zoom","[0]":1}}"#) == #"transition["[0]"]"#)
        // Plain names keep the dotted form.
        #expect(try field(#"{"style":"alert","transition":{"type":"zoom","speed":1}}"#) == "transition.speed")
        #expect(try field(#"{"bogus_1":1}"#, method: "ping") == "bogus_1")
    }
}
