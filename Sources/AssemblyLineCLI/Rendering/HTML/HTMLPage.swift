import AssemblyLine
import Foundation

/// The frame every HTML page of `report` shares: the head with its Content-Security-Policy and style, the
/// heading, and the footer saying what made the page and when.
///
/// The policy is `default-src 'none'` with inline styles and `data:` images only: a page asks for nothing
/// outside its file. The style prints (`@media print`) and needs no font or script.
enum HTMLPage {
    /// The whole document around `body` (sections already escaped); `title` and `subtitle` are escaped here.
    static func document(title: String, subtitle: String, body: String, generatedAt: Date) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escaped(title))</title>
        <style>\(style)</style></head>
        <body><header><h1>\(HTMLText.escaped(title))</h1><p>\(HTMLText.escaped(subtitle))</p></header>

        """ + body
            + "<footer>assemblyline \(HTMLText.escaped(ClientIdentity.version)) · made \(HTMLText.escaped(RunText.time(generatedAt))) from the ledger</footer>"
            + "</body></html>\n"
    }

    /// A summary's figures as a grid of labelled values.
    static func figures(_ figures: [(label: String, value: String)]) -> String {
        "<dl class=\"figures\">"
            + figures.map { "<div><dt>\(HTMLText.escaped($0.label))</dt><dd>\(HTMLText.escaped($0.value))</dd></div>" }.joined()
            + "</dl>"
    }

    private static let style = """
        body{font:14px/1.45 system-ui,sans-serif;color:#1d232a;margin:24px auto;max-width:1000px;padding:0 16px}
        h1{font-size:22px;margin:0}header p{margin:2px 0 16px;color:#555}h2{font-size:17px;margin:24px 0 8px;border-bottom:1px solid #ddd}
        .figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:8px;margin:0}
        .figures div{border:1px solid #e3e3e3;border-radius:6px;padding:6px 10px}dt{color:#666;font-size:12px}dd{margin:0;font-weight:600}
        .note{color:#555;font-size:13px}.chart{overflow-x:auto}svg text{font:11px system-ui,sans-serif;fill:#333}
        .phase.signing{fill:#8e6cc7}.phase.upload{fill:#3a7bd5}.phase.execution{fill:#e8953a}.phase.download{fill:#2a9d8f}
        .failed-attempt{opacity:.4}.outcome.done{fill:#2e9e4f}.outcome.failed{fill:#d0342c}.outcome.unfinished{fill:#9aa0a6}
        svg .failmark{fill:#d0342c;font-weight:700}svg .retries{fill:#b35c00}.axis line{stroke:#888}.rate{fill:#3a7bd5}
        .bars .done{fill:#2e9e4f}.bars .failed{fill:#d0342c}.bars .known_bad{fill:#b35c00}.bars .duration{fill:#8e6cc7}.bars .up{fill:#3a7bd5}.bars .usage{fill:#e8953a}
        table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:3px 6px;border-bottom:1px solid #eee;vertical-align:top}
        .n{text-align:right;white-space:nowrap}.path{overflow-wrap:anywhere;font-family:ui-monospace,monospace}.path .dir{color:#667}.path .dir span,.path .name{display:inline-block;max-width:100%}
        tr.code th{background:#fbeceb}td{overflow-wrap:anywhere}table.files{table-layout:fixed}
        table.files th:nth-child(1),table.files th:nth-child(3){width:29%}table.files th:nth-child(2){width:9%}
        table.files th:nth-child(4),table.files th:nth-child(5){width:8%}
        tr.failed td:nth-child(2),tr.known_bad td:nth-child(2){color:#d0342c;font-weight:600}
        footer{margin-top:24px;color:#777;font-size:12px}
        @media print{body{margin:0;max-width:none}.chart{overflow:visible}section{break-inside:avoid-page}h2{break-after:avoid}}
        """
}
