//! The documentation's rule-set table is the code's.

use std::path::Path;

#[test]
fn rulesets_doc_table_matches_the_constants() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/RULESETS.md");
    let doc = std::fs::read_to_string(&path).expect("docs/RULESETS.md is readable");
    let begin = "<!-- BEGIN GENERATED TABLE: umpire rules -->\n";
    let end = "<!-- END GENERATED TABLE -->";
    let start = doc.find(begin).expect("begin marker") + begin.len();
    let stop = doc.find(end).expect("end marker");
    assert_eq!(
        &doc[start..stop],
        umpire_rules::rule_table::markdown_table(),
        "docs/RULESETS.md is out of date: regenerate the table with `umpire rules`"
    );
}
