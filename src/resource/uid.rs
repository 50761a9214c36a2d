//! Resource UIDs: the `u64` a `.res` stores and the `uid://…` text a `.tres` writes
//! (core/io/resource_uid.cpp, `id_to_text` / `text_to_id`: base 36, `a`–`z` then `0`–`9`,
//! most significant digit first).

/// `uid://…` of `id`, as `ResourceUID::id_to_text` writes it.
pub fn id_to_text(id: u64) -> String {
    // The engine's ID is an int64; a negative one is invalid.
    if (id as i64) < 0 {
        return "uid://<invalid>".into();
    }
    let mut digits = Vec::new();
    let mut n = id;
    loop {
        let c = (n % 36) as u8;
        digits.push(if c < 26 { b'a' + c } else { b'0' + c - 26 });
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    format!("uid://{}", String::from_utf8(digits).expect("ASCII digits"))
}

/// The id of `uid://…` text, as `ResourceUID::text_to_id` reads it; `None` when the text is
/// not a UID.
pub fn text_to_id(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("uid://")?;
    let mut id: u64 = 0;
    for c in digits.bytes() {
        let d = match c {
            b'a'..=b'z' => c - b'a',
            b'0'..=b'9' => c - b'0' + 26,
            _ => return None,
        };
        id = id.checked_mul(36)?.checked_add(u64::from(d))?;
    }
    (id as i64 >= 0 && !digits.is_empty()).then_some(id)
}

#[cfg(test)]
mod tests {
    #[test]
    fn uid_text_round_trips() {
        for id in [0u64, 1, 35, 36, 1 << 40, i64::MAX as u64] {
            assert_eq!(super::text_to_id(&super::id_to_text(id)), Some(id));
        }
        assert_eq!(super::id_to_text(0), "uid://a");
    }
}
