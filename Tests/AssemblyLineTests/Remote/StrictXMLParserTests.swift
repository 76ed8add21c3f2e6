import AssemblyLine
import Testing

/// The strict XML parser: what S3 sends is read, entities decoded; anything that could define or expand entities is refused.
@Suite struct StrictXMLParserTests {
    func parse(_ text: String) throws(StrictXMLParser.Failure) -> XMLElementNode {
        try StrictXMLParser.parse(Array(text.utf8))
    }

    @Test func aListingWithDeclarationNamespaceAndEntitiesIsRead() throws {
        let root = try parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name>\
            <Contents><Key>a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#233;&#x5199;</Key></Contents><Empty/></ListBucketResult>
            """)
        #expect(root.name == "ListBucketResult")
        #expect(root.child("Name")?.text == "b")
        #expect(root.child("Contents")?.child("Key")?.text == "a & b <c> \"d\" 'e' é写")
        #expect(root.child("Empty")?.text == "")
    }

    @Test func aNumericReferenceToNULIsDecodedForTheKeyRulesToRefuse() throws {
        #expect(try parse("<K>a&#0;b</K>").text == "a\u{0}b")
    }

    @Test(arguments: [
        "<!DOCTYPE x [<!ENTITY a \"b\">]><x>&a;</x>",
        "<x><!-- c --></x>",
        "<x><![CDATA[y]]></x>",
        "<x>&unknown;</x>",
        "<x>&#xD800;</x>",
        "<x>&#-1;</x>",
        "<x>&amp</x>",
        "<x></y>",
        "<x>",
        "<x></x><y></y>",
        "text",
        "<x a=b></x>",
        "",
    ])
    func aMalformedOrEntityDefiningDocumentIsRefused(_ text: String) {
        #expect(throws: StrictXMLParser.Failure.self) { try parse(text) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: StrictXMLParser.Failure.self) { try StrictXMLParser.parse(Array("<x>".utf8) + [0xFF] + Array("</x>".utf8)) }
    }

    @Test func nestingDeeperThanTheBoundIsRefused() {
        let depth = StrictXMLParser.maximumDepth + 1
        let text = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        #expect(throws: StrictXMLParser.Failure.self) { try parse(text) }
    }
}
