//! The documentation's filter table is the code's.

use std::path::Path;

#[test]
fn guided_doc_table_matches_the_filters() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/GUIDED.md");
    let doc = std::fs::read_to_string(&path).expect("docs/GUIDED.md is readable");
    let begin = "<!-- BEGIN GENERATED TABLE: umpire_view::guided::markdown_table -->\n";
    let end = "<!-- END GENERATED TABLE -->";
    let start = doc.find(begin).expect("begin marker") + begin.len();
    let stop = doc.find(end).expect("end marker");
    assert_eq!(
        &doc[start..stop],
        umpire_view::guided::markdown_table(),
        "docs/GUIDED.md is out of date: paste umpire_view::guided::markdown_table()"
    );
}
