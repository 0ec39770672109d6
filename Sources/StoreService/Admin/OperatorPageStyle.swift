/// The operator page's style, written in the page: cards that wrap to the screen's width,
/// tables that scroll sideways on a phone, and the system's fonts.
enum OperatorPageStyle {
    /// The style sheet.
    static let css = """
    body{font-family:-apple-system,system-ui,"Segoe UI",Roboto,sans-serif;margin:0;background:#f2f2f7;color:#1c1c1e}
    header{padding:14px 20px;background:#fff;border-bottom:1px solid #d1d1d6}h1{margin:0;font-size:20px}
    .meta{margin:4px 0 6px;color:#636366;font-size:13px}nav{display:flex;flex-wrap:wrap;gap:6px 14px;font-size:14px}
    a{color:#0a60d0}main{padding:14px 20px;max-width:1200px}
    section{background:#fff;border-radius:14px;padding:14px 18px;margin-bottom:18px;box-shadow:0 2px 8px rgba(0,0,0,.06)}
    h2{font-size:18px;margin:0 0 10px}h3{font-size:15px;margin:16px 0 6px}
    .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px}
    .card{background:#f7f7fa;border-radius:10px;padding:10px 12px}.card b{display:block;font-size:22px;overflow-wrap:anywhere}
    .card span{color:#636366;font-size:12px}.card.attention{background:#fff4e0}.card.attention b{color:#8a5300}
    .scroll{overflow-x:auto}table{border-collapse:collapse;font-size:13px;min-width:100%}
    th,td{padding:5px 8px;text-align:left;border-bottom:1px solid #e5e5ea;vertical-align:top}th{color:#636366;font-weight:500;white-space:nowrap}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;font-size:14px;margin:12px 0}dt{color:#636366}dd{margin:0;overflow-wrap:anywhere}
    code{font-size:12px}.good{color:#1d7a36}.bad{color:#b3261e;font-weight:600}.reason{font-family:ui-monospace,monospace;font-size:12px}
    .problem{background:#ffe5e3;color:#b3261e;border-radius:10px;padding:8px 12px}.empty{color:#8e8e93;font-size:14px}
    @media (max-width:600px){header{padding:12px 14px}main{padding:10px}section{padding:12px 12px}.card b{font-size:19px}}
    """
}
