mod bench;
use umpire_rules::RuleSetId;
fn main() {
    for id in RuleSetId::ALL {
        let f = bench::run(id, 3.0, 1, 10_000);
        println!("{}", serde_json::to_string(&f).unwrap());
    }
}
