//! The constructors of the text form: `Vector2(…)` and the other math types by the spec's
//! component tables, packed arrays, `NodePath(…)`, `RID(…)`, and the numbers they take.

use super::lex::Tok;
use super::parse::Parser;
use super::TextError;
use crate::generated::kinds::Kind;
use crate::generated::value::{fixed_from, packed_from};
use crate::layout::{components_of, Scalar};
use crate::variant::*;

impl Parser<'_> {
    /// engine's `_parse_construct` refuses it). `inf`, `inf_neg`, `nan` count as numbers.
    fn numbers(&mut self) -> Result<Vec<(f64, Option<i64>)>, TextError> {
        self.expect(Tok::LParen)?;
        let mut out = Vec::new();
        loop {
            let n = match &self.tok {
                Tok::RParen => {
                    self.advance()?;
                    return Ok(out);
                }
                // `-0` as a real is negative zero (our exact text writes it).
                Tok::Int(0, true) => (-0.0, Some(0)),
                Tok::Int(i, _) => (*i as f64, Some(*i)),
                Tok::Float(f) => (*f, None),
                Tok::Ident(id) => match special_float(id) {
                    Some(f) => (f, None),
                    None => return Err(self.expected("a number")),
                },
                _ => return Err(self.expected("a number")),
            };
            out.push(n);
            self.advance()?;
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
    fn args(&mut self, name: &str, counts: &[usize]) -> Result<Vec<(f64, Option<i64>)>, TextError> {
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
    fn packed(&mut self, name: &str, width: usize) -> Result<Vec<(f64, Option<i64>)>, TextError> {
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
            "inf" | "inf_neg" | "nan" => Variant::Float(special_float(id).unwrap_or(f64::NAN)),
            "NodePath" => {
                self.expect(Tok::LParen)?;
                let s = self.string_arg()?;
                self.expect(Tok::RParen)?;
                Variant::NodePath(Box::new(NodePath::parse(&s)))
            }
            "StringName" => {
                self.expect(Tok::LParen)?;
                let s = self.string_arg()?;
                self.expect(Tok::RParen)?;
                Variant::StringName(StringName(s.into()))
            }
            // `RID()` or `RID(id)`; 4.x reads the id as a 64-bit number.
            "RID" => {
                let a = self.args(id, &[0, 1])?;
                match a.first() {
                    None => Variant::Rid(0),
                    Some((_, Some(i))) => Variant::Rid(*i as u64),
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
            "Signal" => {
                self.args(id, &[0])?;
                Variant::Signal(Signal::default())
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
                let a = self.packed(id, 1)?;
                let mut out = Vec::with_capacity(a.len());
                for (f, i) in a {
                    match i {
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
                for (_, i) in a {
                    out.push(i.ok_or(TextError {
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
                Variant::PackedFloat32Array(a.into_iter().map(|(f, _)| f as f32).collect())
            }
            "PackedFloat64Array" => {
                let a = self.packed(id, 1)?;
                Variant::PackedFloat64Array(a.into_iter().map(|(f, _)| f).collect())
            }
            "PackedStringArray" | "PoolStringArray" | "StringArray" => {
                self.expect(Tok::LParen)?;
                let mut out = Vec::new();
                loop {
                    if self.tok == Tok::RParen {
                        self.advance()?;
                        break;
                    }
                    out.push(self.string_arg()?);
                    match self.tok {
                        Tok::Comma => {
                            self.advance()?;
                        }
                        Tok::RParen => {}
                        _ => return Err(self.expected("`,` or `)`")),
                    }
                }
                Variant::PackedStringArray(out)
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
        for (i, (f, int)) in args.into_iter().enumerate() {
            values.push(match comps[i % n].scalar {
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

fn ints32(
    a: Vec<(f64, Option<i64>)>,
    name: &str,
    line: usize,
    column: usize,
) -> Result<Vec<i32>, TextError> {
    a.into_iter()
        .map(|(f, i)| {
            i.and_then(|i| i32::try_from(i).ok())
                .ok_or_else(|| TextError {
                    line,
                    column,
                    message: format!("`{name}` takes 32-bit integers, found {f}"),
                })
        })
        .collect()
}
