//! The engines `check` knows, from the library's [`magnolify_parquet::engines`],
//! and the text it prints.

pub use magnolify_parquet::engines::{check, Engine, Finding, Severity};

/// The text `check` prints: a summary line, then one line per finding.
pub fn report(engine: Engine, findings: &[Finding]) -> String {
    let unreadable = findings.iter().filter(|f| f.severity == Severity::Unreadable).count();
    let different = findings.len() - unreadable;
    let mut out = if findings.is_empty() {
        format!("{engine}: every column reads as the schema says\n")
    } else {
        format!("{engine}: {unreadable} unreadable, {different} read differently\n")
    };
    for f in findings {
        out.push_str(&format!("  {f}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_counts_findings() {
        let message = parquet::schema::parser::parse_message_type(
            "message m { required fixed_len_byte_array(16) id (UUID); required int64 n (INTEGER(64,false)); }",
        )
        .expect("schema parses");
        let findings = check(&message, Engine::Spark);
        let text = report(Engine::Spark, &findings);
        assert!(text.starts_with("spark: 1 unreadable, 1 read differently\n  id: unreadable: "), "{text}");
        assert_eq!(report(Engine::DuckDb, &[]), "duckdb: every column reads as the schema says\n");
    }
}
