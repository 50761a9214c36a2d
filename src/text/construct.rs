//! The constructors of the text form: `Vector2(…)` and the other math types by the spec's
//! component tables, packed arrays, `NodePath(…)`, `RID(…)`, and the numbers they take.

use super::lex::Tok;
use super::parse::Parser;
use super::TextError;
use crate::generated::kinds::Kind;
use crate::variant::layout::{components_of, real_to_f32_bits, Scalar};
use crate::variant::value::{fixed_from, packed_from};
use crate::variant::*;

/// A number argument of a constructor.
#[derive(Clone, Copy)]
struct Num {
    value: f64,
    /// The integer, when it was written as one.
    int: Option<i64>,
    /// Written as bits (a hex float or `nan(0x…)`): kept as is, never narrowed to `f32`.
    exact: bool,
}

impl Num {
    fn real(value: f64) -> Num {
        Num {
            value,
            int: None,
            exact: false,
        }
    }
}

impl Parser<'_> {
    /// Numbers between `(` and `)`, commas between, a trailing comma allowed (lenient: the
    /// engine's `_parse_construct` refuses it). `inf`, `inf_neg`, `nan`, `nan(0x…)` and hex
    /// floats count as numbers.
    fn numbers(&mut self) -> Result<Vec<Num>, TextError> {
        self.expect(Tok::LParen)?;
        self.numbers_after_paren()
    }

    /// [`Self::numbers`] once the `(` is read.
    fn numbers_after_paren(&mut self) -> Result<Vec<Num>, TextError> {
        let mut out = Vec::new();
        loop {
            // `nan` consumes its tokens itself, looking for `(` after it.
            let mut consumed = false;
            let n = match &self.tok {
                Tok::RParen => {
                    self.advance()?;
                    return Ok(out);
                }
                // `-0` as a real is negative zero (our exact text writes it).
                Tok::Int(0, true) => Num {
                    int: Some(0),
                    ..Num::real(-0.0)
                },
                Tok::Int(i, _) => Num {
                    int: Some(*i),
                    ..Num::real(*i as f64)
                },
                Tok::Float(f) => Num::real(*f),
                Tok::HexFloat(f) => Num {
                    exact: true,
                    ..Num::real(*f)
                },
                Tok::Ident(id) if id == "nan" => {
                    self.advance()?;
                    consumed = true;
                    match self.nan_bits()? {
                        Some(bits) => Num {
                            exact: true,
                            ..Num::real(bits)
                        },
                        None => Num::real(f64::NAN),
                    }
                }
                Tok::Ident(id) => match special_float(id) {
                    Some(f) => Num::real(f),
                    None => return Err(self.expected("a number")),
                },
                _ => return Err(self.expected("a number")),
            };
            out.push(n);
            if !consumed {
                self.advance()?;
            }
            match self.tok {
                Tok::Comma => {
                    self.advance()?;
                }
                Tok::RParen => {}
                _ => return Err(self.expected("`,` or `)`")),
            }
        }
    }

    /// Constructor arguments, exactly `count` of them (or any multiple when `multiple`).
    fn args(&mut self, name: &str, counts: &[usize]) -> Result<Vec<Num>, TextError> {
        let (line, column) = (self.line, self.column);
        let args = self.numbers()?;
        if !counts.contains(&args.len()) {
            let want: Vec<String> = counts.iter().map(usize::to_string).collect();
            return Err(TextError {
                line,
                column,
                message: format!(
                    "`{name}` takes {} arguments, found {}",
                    want.join(" or "),
                    args.len()
                ),
            });
        }
        Ok(args)
    }

    /// A packed array of `width`-component elements.
    fn packed(&mut self, name: &str, width: usize) -> Result<Vec<Num>, TextError> {
        let (line, column) = (self.line, self.column);
        let args = self.numbers()?;
        if args.len() % width != 0 {
            return Err(TextError {
                line,
                column,
                message: format!(
                    "`{name}` needs a multiple of {width} numbers, found {}",
                    args.len()
                ),
            });
        }
        Ok(args)
    }

    pub(super) fn identifier(
        &mut self,
        id: &str,
        line: usize,
        column: usize,
    ) -> Result<Variant, TextError> {
        let v = match id {
            "null" | "nil" => Variant::Nil,
            "true" => Variant::Bool(true),
            "false" => Variant::Bool(false),
            "nan" => Variant::Float(self.nan_bits()?.unwrap_or(f64::NAN)),
            "inf" | "inf_neg" => Variant::Float(special_float(id).unwrap_or(f64::NAN)),
            "NodePath" => {
                self.expect(Tok::LParen)?;
                let path = if self.tok == Tok::LBracket {
                    self.node_path_parts()?
                } else {
                    NodePath::parse(&self.string_arg()?)
                };
                self.expect(Tok::RParen)?;
                Variant::NodePath(Box::new(path))
            }
            "StringName" => {
                self.expect(Tok::LParen)?;
                let s = self.string_arg()?;
                self.expect(Tok::RParen)?;
                Variant::StringName(StringName(s))
            }
            // `RID()` or `RID(id)`; 4.x reads the id as a 64-bit number.
            "RID" => {
                let a = self.args(id, &[0, 1])?;
                match a.first() {
                    None => Variant::Rid(0),
                    Some(Num { int: Some(i), .. }) => Variant::Rid(*i as u64),
                    Some(_) => {
                        return Err(TextError {
                            line,
                            column,
                            message: "`RID` takes an integer id".into(),
                        })
                    }
                }
            }
            // "Load as empty": the engines keep no data for these.
            "Callable" => {
                self.args(id, &[0])?;
                Variant::Callable
            }
            // `Signal()`, or exact text's `Signal(&"name", id)` (the engines print no data).
            "Signal" => {
                self.expect(Tok::LParen)?;
                if self.tok == Tok::RParen {
                    self.advance()?;
                    Variant::Signal(Signal::default())
                } else {
                    let name = self.string_arg()?.into_string();
                    self.expect(Tok::Comma)?;
                    let object = match self.tok {
                        Tok::Int(i, _) => i as u64,
                        _ => return Err(self.expected("an object id")),
                    };
                    self.advance()?;
                    self.expect(Tok::RParen)?;
                    Variant::Signal(Signal { name, object })
                }
            }
            // A resource file's reference: Godot 4 writes the id as a string, Godot 3 as an
            // int (resource_format_text.cpp, `_write_resource`).
            "ExtResource" | "SubResource" if self.references => {
                self.expect(Tok::LParen)?;
                let target = match &self.tok {
                    Tok::Int(i, _) => Variant::Int(*i),
                    _ => Variant::String(self.string_arg()?),
                };
                if matches!(target, Variant::Int(_)) {
                    self.advance()?;
                }
                self.expect(Tok::RParen)?;
                crate::text::resource_reference(id, target)
            }
            "Resource" | "ExtResource" | "SubResource" => {
                return Err(TextError {
                    line,
                    column,
                    message: format!(
                        "`{id}(…)` refers to a resource file, which a value as data cannot hold"
                    ),
                })
            }
            "PackedByteArray" | "PoolByteArray" | "ByteArray" => {
                self.expect(Tok::LParen)?;
                // Godot 4.3+ resources of format 4: `PackedByteArray("AQID")`
                // (variant_parser.cpp `_parse_byte_array`).
                if let Tok::Str(text) = &self.tok {
                    use base64::Engine as _;
                    let bytes = base64::engine::general_purpose::STANDARD
                        .decode(text.as_bytes())
                        .map_err(|e| TextError {
                            line,
                            column,
                            message: format!("`{id}` holds a string that is not base64: {e}"),
                        })?;
                    self.advance()?;
                    self.expect(Tok::RParen)?;
                    return Ok(Variant::PackedByteArray(bytes));
                }
                let a = self.numbers_after_paren()?;
                let mut out = Vec::with_capacity(a.len());
                for Num { value: f, int, .. } in a {
                    match int {
                        Some(b @ 0..=255) => out.push(b as u8),
                        _ => {
                            return Err(TextError {
                                line,
                                column,
                                message: format!(
                                    "`{id}` elements must be integers 0 to 255, found {f}"
                                ),
                            })
                        }
                    }
                }
                Variant::PackedByteArray(out)
            }
            "PackedInt32Array" | "PackedIntArray" | "PoolIntArray" | "IntArray" => {
                let a = self.packed(id, 1)?;
                Variant::PackedInt32Array(ints32(a, id, line, column)?)
            }
            "PackedInt64Array" => {
                let a = self.packed(id, 1)?;
                let mut out = Vec::with_capacity(a.len());
                for n in a {
                    out.push(n.int.ok_or(TextError {
                        line,
                        column,
                        message: format!("`{id}` elements must be integers"),
                    })?);
                }
                Variant::PackedInt64Array(out)
            }
            "PackedFloat32Array" | "PackedRealArray" | "PoolRealArray" | "FloatArray"
            | "RealArray" => {
                let a = self.packed(id, 1)?;
                // Through the NaN-keeping narrowing: a `nan(0x…)` element keeps its payload.
                Variant::PackedFloat32Array(
                    a.into_iter()
                        .map(|n| f32::from_bits(real_to_f32_bits(n.value)))
                        .collect(),
                )
            }
            "PackedFloat64Array" => {
                let a = self.packed(id, 1)?;
                Variant::PackedFloat64Array(a.into_iter().map(|n| n.value).collect())
            }
            "PackedStringArray" | "PoolStringArray" | "StringArray" => {
                Variant::PackedStringArray(self.strings(Tok::LParen, Tok::RParen)?)
            }
            // Math types and packed arrays of them, by any constructor name of any dialect.
            _ if Kind::from_text_name(id).is_some() => self.math(id)?,
            _ => {
                return Err(TextError {
                    line,
                    column,
                    message: format!("unknown identifier `{id}`"),
                })
            }
        };
        Ok(v)
    }

    /// A math value or a packed array of them: numbers read by each component's scalar type
    /// (reals narrowed to `f32` as the engines' `real_t` parse does), trailing components with
    /// a text default optional.
    fn math(&mut self, name: &str) -> Result<Variant, TextError> {
        // Errors point at the arguments, as those of every constructor do.
        let (line, column) = (self.line, self.column);
        let err = |message: String| TextError {
            line,
            column,
            message,
        };
        let kind = Kind::from_text_name(name)
            .ok_or_else(|| err(format!("unknown identifier `{name}`")))?;
        let comps =
            components_of(kind).ok_or_else(|| err(format!("`{name}` is not a math type")))?;
        let n = comps.len();
        let args = self.numbers()?;
        let packed = kind.packed_element().is_some();
        if packed && args.len() % n != 0 {
            return Err(err(format!(
                "`{name}` needs a multiple of {n} numbers, found {}",
                args.len()
            )));
        }
        let optional = comps
            .iter()
            .rev()
            .take_while(|c| c.text_default.is_some())
            .count();
        if !packed && !(n - optional..=n).contains(&args.len()) {
            let want: Vec<String> = (n - optional..=n).map(|c| c.to_string()).collect();
            return Err(err(format!(
                "`{name}` takes {} arguments, found {}",
                want.join(" or "),
                args.len()
            )));
        }
        let mut values = Vec::with_capacity(args.len().max(n));
        for (
            i,
            Num {
                value: f,
                int,
                exact,
            },
        ) in args.into_iter().enumerate()
        {
            values.push(match comps[i % n].scalar {
                // A real written as bits is what a double-precision engine sent: kept.
                Scalar::Real if exact => f,
                Scalar::Real => narrow(f),
                Scalar::F32 => f,
                Scalar::I32 => int
                    .and_then(|i| i32::try_from(i).ok())
                    .map(f64::from)
                    .ok_or_else(|| err(format!("`{name}` takes 32-bit integers, found {f}")))?,
            });
        }
        if !packed {
            let missing = comps.get(values.len()..).unwrap_or(&[]);
            values.extend(missing.iter().filter_map(|c| c.text_default));
        }
        let at = |i: usize| values.get(i).copied().unwrap_or(0.0);
        let v = if packed {
            packed_from(kind, values.len() / n, &mut |i| at(i))
        } else {
            fixed_from(kind, &mut |i| at(i))
        };
        v.ok_or_else(|| err(format!("`{name}` is not a math type")))
    }
}

impl Parser<'_> {
    /// Exact text's `NodePath(["names", …], ["subnames", …], absolute)` after its `(`: the
    /// parts of a path whose names the path text cannot hold (empty, or with `/` or `:`).
    fn node_path_parts(&mut self) -> Result<NodePath, TextError> {
        let names = self.strings(Tok::LBracket, Tok::RBracket)?;
        self.expect(Tok::Comma)?;
        let subnames = self.strings(Tok::LBracket, Tok::RBracket)?;
        self.expect(Tok::Comma)?;
        let absolute = match &self.tok {
            Tok::Ident(b) if b == "true" || b == "false" => b == "true",
            _ => return Err(self.expected("`true` or `false`")),
        };
        self.advance()?;
        Ok(NodePath {
            names,
            subnames,
            absolute,
        })
    }

    /// `open` strings, commas between (a trailing one allowed) `close`.
    fn strings(&mut self, open: Tok, close: Tok) -> Result<Vec<GString>, TextError> {
        self.expect(open)?;
        let mut out = Vec::new();
        while self.tok != close {
            out.push(self.string_arg()?);
            if self.tok == Tok::Comma {
                self.advance()?;
            } else if self.tok != close {
                return Err(self.expected(&format!("`,` or {}", close.describe())));
            }
        }
        self.advance()?;
        Ok(out)
    }

    /// After `nan`: the bits of `nan(0x…)`, exact text's form of a NaN other than the
    /// positive quiet one (`nan`) and the negative one (`-nan`); `None` for a plain `nan`.
    fn nan_bits(&mut self) -> Result<Option<f64>, TextError> {
        if self.tok != Tok::LParen {
            return Ok(None);
        }
        self.advance()?;
        let bits = match self.advance()? {
            Tok::Hex(bits) if f64::from_bits(bits).is_nan() => f64::from_bits(bits),
            _ => return Err(self.error("`nan(…)` takes the 64 bits of a NaN, as `0x…`")),
        };
        self.expect(Tok::RParen)?;
        Ok(Some(bits))
    }
}

fn special_float(id: &str) -> Option<f64> {
    // `stor_fix` / parse_value: `inf`, `inf_neg` (and 4.x `-inf`), `nan`.
    match id {
        "inf" => Some(f64::INFINITY),
        "inf_neg" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => None,
    }
}

fn narrow(f: f64) -> f64 {
    f64::from(f as f32)
}

fn ints32(a: Vec<Num>, name: &str, line: usize, column: usize) -> Result<Vec<i32>, TextError> {
    a.into_iter()
        .map(|Num { value: f, int, .. }| {
            int.and_then(|i| i32::try_from(i).ok())
                .ok_or_else(|| TextError {
                    line,
                    column,
                    message: format!("`{name}` takes 32-bit integers, found {f}"),
                })
        })
        .collect()
}
