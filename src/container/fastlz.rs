//! FastLZ as the engines bundle it (`thirdparty/misc/fastlz.c`): the level-1 compressor ported
//! byte for byte, and both levels' decompressors with every bound checked.
//!
//! No maintained crate writes the engine's exact bytes, so this is a port of the engine's
//! copy (the same in Godot 3.x and 4.x: `fastlz1_compress`, `fastlz1_decompress`,
//! `fastlz2_decompress`). The engine compresses blocks shorter than 65,536 bytes at level 1
//! (`fastlz_compress`), and `open_compressed` blocks are 4,096 bytes, so level 1 is all a
//! writer needs; a reader also takes level 2, which `fastlz_decompress` dispatches on.

const MAX_COPY: usize = 32;
const MAX_LEN: usize = 264;
const MAX_L1_DISTANCE: usize = 8192;
const MAX_L2_DISTANCE: usize = 8191;
const HASH_LOG: u32 = 13;
const HASH_SIZE: usize = 1 << HASH_LOG;
const HASH_MASK: u32 = (HASH_SIZE - 1) as u32;

fn read_u16(data: &[u8], at: usize) -> u32 {
    u32::from(data[at]) | u32::from(data[at + 1]) << 8
}

/// `HASH_FUNCTION` of fastlz.c: three bytes at `at`.
fn hash(data: &[u8], at: usize) -> usize {
    let v = read_u16(data, at);
    let v = v ^ read_u16(data, at + 1) ^ (v >> (16 - HASH_LOG));
    (v & HASH_MASK) as usize
}

/// `Compression::compress(MODE_FASTLZ)`: inputs shorter than 16 bytes are padded with zeros
/// to 16 first (core/io/compression.cpp), then `fastlz_compress`, which is level 1 below
/// 65,536 bytes. Larger inputs are not written by `open_compressed` and are refused.
pub(crate) fn compress(input: &[u8]) -> Option<Vec<u8>> {
    if input.len() >= 65536 {
        return None;
    }
    if input.len() < 16 {
        let mut padded = [0u8; 16];
        padded[..input.len()].copy_from_slice(input);
        return Some(compress_level1(&padded));
    }
    Some(compress_level1(input))
}

/// `fastlz1_compress`, statement for statement (the hash table holds positions).
fn compress_level1(input: &[u8]) -> Vec<u8> {
    let length = input.len();
    let mut out = Vec::with_capacity(length + length / 16 + 66);
    if length < 4 {
        if length > 0 {
            out.push((length - 1) as u8);
            out.extend_from_slice(input);
        }
        return out;
    }
    let ip_bound = length - 2;
    // `ip + length - 12 - 1`: below 2 for short inputs, when the main loop never runs.
    let ip_limit = length.saturating_sub(13);
    let mut htab = vec![0usize; HASH_SIZE];
    let mut copy: usize = 2;
    out.push((MAX_COPY - 1) as u8);
    out.extend_from_slice(&input[..2]);
    let mut ip = 2;
    while ip < ip_limit {
        let anchor = ip;
        let hval = hash(input, ip);
        let mut reference = htab[hval];
        htab[hval] = anchor;
        let mut distance = anchor - reference;
        let is_match = distance != 0
            && distance < MAX_L1_DISTANCE
            && input[reference..reference + 3] == input[ip..ip + 3];
        if !is_match {
            out.push(input[anchor]);
            ip = anchor + 1;
            copy += 1;
            if copy == MAX_COPY {
                copy = 0;
                out.push((MAX_COPY - 1) as u8);
            }
            continue;
        }
        reference += 3;
        ip = anchor + 3;
        distance -= 1;
        if distance == 0 {
            // A run: the C loop stops on the first different byte without stepping past it.
            let x = input[ip - 1];
            while ip < ip_bound {
                if input[reference] != x {
                    break;
                }
                reference += 1;
                ip += 1;
            }
        } else {
            // The C loop steps both pointers past the first different byte.
            let mut same = 0;
            loop {
                let equal = input[reference] == input[ip];
                reference += 1;
                ip += 1;
                if !equal {
                    break;
                }
                same += 1;
                if same == 8 {
                    while ip < ip_bound {
                        let equal = input[reference] == input[ip];
                        reference += 1;
                        ip += 1;
                        if !equal {
                            break;
                        }
                    }
                    break;
                }
            }
        }
        if copy != 0 {
            let at = out.len() - copy - 1;
            out[at] = (copy - 1) as u8;
        } else {
            out.pop();
        }
        copy = 0;
        ip -= 3;
        let mut len = ip - anchor;
        while len > MAX_LEN - 2 {
            out.push(((7 << 5) + (distance >> 8)) as u8);
            out.push((MAX_LEN - 2 - 7 - 2) as u8);
            out.push((distance & 255) as u8);
            len -= MAX_LEN - 2;
        }
        if len < 7 {
            out.push(((len << 5) + (distance >> 8)) as u8);
            out.push((distance & 255) as u8);
        } else {
            out.push(((7 << 5) + (distance >> 8)) as u8);
            out.push((len - 7) as u8);
            out.push((distance & 255) as u8);
        }
        let hval = hash(input, ip);
        htab[hval] = ip;
        ip += 1;
        let hval = hash(input, ip);
        htab[hval] = ip;
        ip += 1;
        out.push((MAX_COPY - 1) as u8);
    }
    while ip < length {
        out.push(input[ip]);
        ip += 1;
        copy += 1;
        if copy == MAX_COPY {
            copy = 0;
            out.push((MAX_COPY - 1) as u8);
        }
    }
    if copy != 0 {
        let at = out.len() - copy - 1;
        out[at] = (copy - 1) as u8;
    } else {
        out.pop();
    }
    out
}

/// `fastlz_decompress` into at most `max_out` bytes: the level from the first byte's top
/// bits, then that level's decoder. `Err` names what was out of bounds where the engine's
/// safe decoder returns 0.
#[cfg(test)]
pub(crate) fn decompress(input: &[u8], max_out: usize) -> Result<Vec<u8>, &'static str> {
    let mut out = vec![0; max_out];
    let len = decompress_into(input, &mut out)?;
    out.truncate(len);
    Ok(out)
}

/// [`decompress`] into `out` (at most its length), returning how many bytes it made: the
/// reader decodes each block straight into its place in the plain data.
pub(crate) fn decompress_into(input: &[u8], out: &mut [u8]) -> Result<usize, &'static str> {
    let first = *input.first().ok_or("an empty block")?;
    let level = (first >> 5) + 1;
    if level > 2 {
        return Err("an unknown FastLZ level");
    }
    let long = level == 2;
    let max_out = out.len();
    let mut op = 0;
    let limit = input.len();
    let mut ip = 1;
    let mut ctrl = usize::from(first & 31);
    loop {
        if ctrl >= 32 {
            let mut len = (ctrl >> 5) - 1;
            let mut ofs = (ctrl & 31) << 8;
            if len == 7 - 1 {
                loop {
                    // `ip <= ip_bound`: two bytes left, this one and the distance.
                    if ip + 2 > limit {
                        return Err("a match length past the end of the block");
                    }
                    let code = input[ip];
                    ip += 1;
                    len += usize::from(code);
                    if !long || code != 255 {
                        break;
                    }
                }
            }
            let code = *input
                .get(ip)
                .ok_or("a match distance past the end of the block")?;
            ip += 1;
            let mut back = ofs + 1 + usize::from(code);
            len += 3;
            if long && code == 255 && ofs == 31 << 8 {
                if ip + 2 >= limit {
                    return Err("a far distance past the end of the block");
                }
                ofs = usize::from(input[ip]) << 8 | usize::from(input[ip + 1]);
                ip += 2;
                back = ofs + MAX_L2_DISTANCE + 1;
            }
            if op + len > max_out {
                return Err("a match past the end of the output");
            }
            if back > op {
                return Err("a match before the start of the output");
            }
            let from = op - back;
            if back >= len {
                out.copy_within(from..from + len, op);
            } else {
                // Overlapping copies repeat the bytes just written (a run), byte by byte.
                for k in 0..len {
                    out[op + k] = out[from + k];
                }
            }
            op += len;
        } else {
            let run = ctrl + 1;
            if op + run > max_out {
                return Err("literals past the end of the output");
            }
            if ip + run > limit {
                return Err("literals past the end of the block");
            }
            out[op..op + run].copy_from_slice(&input[ip..ip + run]);
            op += run;
            ip += run;
        }
        // Level 1 stops once fewer than two bytes are left (`ip > ip_bound`), level 2 at the end.
        let done = if long { ip >= limit } else { ip + 2 > limit };
        if done {
            break;
        }
        ctrl = usize::from(input[ip]);
        ip += 1;
    }
    Ok(op)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8]) {
        let packed = compress(data).unwrap();
        let max = data.len().max(16);
        let back = decompress(&packed, max).unwrap();
        assert_eq!(&back[..data.len()], data);
    }

    #[test]
    fn round_trips() {
        round_trip(b"");
        round_trip(b"abc");
        round_trip(&[7; 4000]);
        let text: Vec<u8> = (0..4096u32)
            .map(|i| (i * 7 % 251) as u8 ^ (i / 300) as u8)
            .collect();
        round_trip(&text);
        let words = b"the quick brown fox jumps over the lazy dog ".repeat(90);
        round_trip(&words);
    }

    #[test]
    fn hostile_blocks_are_errors() {
        assert!(decompress(&[], 16).is_err());
        assert!(decompress(&[0xE0, 0xff], 16).is_err());
        assert!(decompress(&[0x00, 0x41, 0x20, 0x05], 16).is_err());
        assert!(decompress(&[31, 1, 2], 4096).is_err());
    }
}
