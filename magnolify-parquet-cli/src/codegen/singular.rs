//! The singular of a list's name, for the struct of its elements: a list
//! `stops` holds `Stop`s, not `Stops`.
//!
//! A few suffix rules and no dictionary (no irregular plurals): a name the
//! rules do not fit has no singular, and the caller falls back on
//! `<Name>Element`, which is never wrong, only longer.

/// Endings whose `es` is the plural's (`addresses`, `boxes`, `matches`,
/// `dishes`): dropped whole. Other `-ses` words mostly just add `s`
/// (`cases`, `responses`, `purchases`), so only `-sses` is among these.
const ES_ENDINGS: &[&str] = &["sses", "xes", "ches", "shes"];

/// Endings in `s` that are no plural (`address`, `status`, `analysis`).
const NOT_PLURAL: &[&str] = &["ss", "us", "is"];

/// The singular of `name`, in its own case style (only its end changes:
/// `lineItems` → `lineItem`, `STOPS` → `STOP`); `None` when the name does
/// not end like an English plural. The rules, first match wins:
///
/// * `-ies` → `-y` (`categories` → `category`);
/// * `-sses`, `-xes`, `-ches`, `-shes` drop `es` (`boxes` → `box`), and so
///   does `-uses` after a consonant (`statuses` → `status`, but `houses` →
///   `house`);
/// * `-s` drops the `s` (`stops` → `stop`), but not in `-ss`, `-us`, `-is`.
///
/// The singular must end in a letter (`v2s` and `_s` have none), so that
/// it is a word.
pub fn singular(name: &str) -> Option<String> {
    // ASCII lower-casing keeps every byte where it is: indices carry over.
    let lower = name.to_ascii_lowercase();
    let ends = |suffix: &str| lower.ends_with(suffix);
    let consonant_before = |suffix_len: usize| {
        lower[..lower.len() - suffix_len].ends_with(|c: char| c.is_ascii_alphabetic() && !"aeiou".contains(c))
    };
    let (cut, add) = if ends("ies") {
        (3, "y")
    } else if ES_ENDINGS.iter().any(|e| ends(e)) || (ends("uses") && consonant_before(4)) {
        (2, "")
    } else if ends("s") && !NOT_PLURAL.iter().any(|e| ends(e)) {
        (1, "")
    } else {
        return None;
    };
    let stem = &name[..name.len() - cut];
    if !stem.ends_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    // `CATEGORIES` → `CATEGORY`: the added letter takes the case of the plural's `S`.
    let add = if name.ends_with('S') { add.to_ascii_uppercase() } else { add.to_owned() };
    Some(format!("{stem}{add}"))
}

#[cfg(test)]
mod tests {
    use super::singular;

    #[test]
    fn plurals_lose_their_ending() {
        for (plural, one) in [
            ("stops", "stop"),
            ("line_items", "line_item"),
            ("lineItems", "lineItem"),
            ("LineItems", "LineItem"),
            ("STOPS", "STOP"),
            ("categories", "category"),
            ("CATEGORIES", "CATEGORY"),
            ("entries", "entry"),
            ("addresses", "address"),
            ("classes", "class"),
            ("boxes", "box"),
            ("matches", "match"),
            ("dishes", "dish"),
            ("statuses", "status"),
            ("bonuses", "bonus"),
            ("houses", "house"),
            ("causes", "cause"),
            ("cases", "case"),
            ("responses", "response"),
            ("purchases", "purchase"),
            ("ids", "id"),
            ("user.ids", "user.id"),
        ] {
            assert_eq!(singular(plural).as_deref(), Some(one), "{plural}");
        }
    }

    #[test]
    fn non_plurals_have_no_singular() {
        for name in
            ["stop", "address", "status", "analysis", "history", "data", "s", "ies", "uses_", "v2s", "_s", "a_s", ""]
        {
            assert_eq!(singular(name), None, "{name}");
        }
    }

    #[test]
    fn non_ascii_names_are_cut_at_their_ascii_end() {
        assert_eq!(singular("prénoms").as_deref(), Some("prénom"));
        assert_eq!(singular("日付s"), None);
    }
}
