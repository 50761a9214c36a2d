//! Emits `math.rs` (the fixed layouts: structs, wire reads and writes, components) and
//! `value.rs` (the value enums and the per-kind dispatch every hand-written module expands).

use super::{ident, lit};
use crate::model::{
    Component, Field, FieldType, KindDef, Layout, Model, Scalar, Spec, StructType, Type,
};
use crate::special_cases::HEADER_LEN;
use proc_macro2::TokenStream;
use quote::quote;

/// Values at most this many bytes stay inline in `Variant`; larger math types are boxed so that
/// a `Variant` (and an array of them, the bulk of real data) stays small.
const INLINE_BYTES: usize = 32;

/// The layout a math kind is generated from: the dialect that has its FLAG_64 form if any
/// (`lower` checked that the narrow forms agree everywhere), else the first that has it.
pub fn layout_source<'a>(spec: &'a Spec, kind: &str) -> Option<&'a Type> {
    let real = || spec.dialects.iter().filter(|d| !d.documentation);
    real()
        .filter_map(|d| d.ty(kind))
        .find(|t| t.has_wide())
        .or_else(|| real().find_map(|d| d.ty(kind)))
}

fn scalar_ty(s: Scalar) -> TokenStream {
    match s {
        Scalar::Real => quote!(f64),
        Scalar::I32 => quote!(i32),
        Scalar::F32 => quote!(f32),
    }
}

fn scalar_variant(s: Scalar) -> TokenStream {
    match s {
        Scalar::Real => quote!(Scalar::Real),
        Scalar::I32 => quote!(Scalar::I32),
        Scalar::F32 => quote!(Scalar::F32),
    }
}

/// `self.rows[0].x` from the component path `rows[0].x`, built token by token (the path was
/// made by `lower` from identifiers and indices, so there is nothing to fail on).
fn access(root: TokenStream, path: &str) -> TokenStream {
    let mut out = root;
    for seg in path.split('.') {
        match seg.split_once('[') {
            Some((name, idx)) => {
                let name = ident(name);
                let i = lit(idx.trim_end_matches(']').parse::<u64>().unwrap_or(0));
                out = quote!(#out.#name[#i]);
            }
            None => {
                let name = ident(seg);
                out = quote!(#out.#name);
            }
        }
    }
    out
}

/// Bytes of the struct in memory (reals are f64).
fn model_bytes(l: &Layout) -> usize {
    l.components
        .iter()
        .map(|c| if c.scalar == Scalar::Real { 8 } else { 4 })
        .sum()
}

fn boxed(k: &KindDef) -> bool {
    k.layout
        .as_ref()
        .is_some_and(|l| model_bytes(l) > INLINE_BYTES)
}

fn fixed_kinds(spec: &Spec) -> impl Iterator<Item = (&KindDef, &Layout)> {
    spec.kinds
        .iter()
        .filter_map(|k| k.layout.as_ref().map(|l| (k, l)))
}

fn packed_kinds(spec: &Spec) -> impl Iterator<Item = (&KindDef, &str)> {
    spec.kinds
        .iter()
        .filter_map(|k| k.packed_of.as_deref().map(|e| (k, e)))
}

fn payload_offset(e: &crate::model::Expr) -> proc_macro2::Literal {
    lit((e.as_const().unwrap_or(0) - HEADER_LEN) as u64)
}

/// `src/generated/math.rs`.
pub fn emit_math(spec: &Spec) -> TokenStream {
    let mut items = Vec::new();
    for (k, l) in fixed_kinds(spec) {
        items.push(emit_struct(k, l));
        if let Some(t) = layout_source(spec, &k.name) {
            let packed = packed_kinds(spec)
                .find(|(_, e)| *e == k.name)
                .map(|(p, _)| p);
            items.push(emit_layout(k, l, t, packed));
        }
    }
    let fixed_names: Vec<proc_macro2::Ident> =
        fixed_kinds(spec).map(|(k, _)| ident(&k.name)).collect();
    let packed_elements: Vec<proc_macro2::Ident> =
        packed_kinds(spec).map(|(_, e)| ident(e)).collect();
    quote! {
        #![doc = "The math types of the Variant model and their fixed layouts, straight from the spec."]
        #![doc = ""]
        #![doc = "Real components are `f64`: a single-precision engine's `f32` widens exactly and a"]
        #![doc = "double-precision engine's `f64` fits as is. Wire offsets are relative to the payload"]
        #![doc = "(the 4-byte header excluded); `wide` selects the FLAG_64 form (8-byte reals)."]
        #![allow(clippy::field_reassign_with_default, unused_imports)]

        use crate::generated::kinds::Kind;
        use crate::variant::value::Variant;
        use crate::variant::layout::{
            fits_f32, read_f32_bits, read_i32, read_real, real_from_f32_bits, real_to_f32_bits,
            write_f32, write_i32, write_real, Component, FixedLayout, PackedLayout, Scalar,
        };
        use crate::variant::packed::PackedRef;

        #(#items)*

        /// A value type that every fixed layout converts into (`Variant`, `VariantRef`, the
        /// decoder's validating builder): what the decoder needs of what it builds.
        pub trait FromFixed: #(From<#fixed_names>)+* {}
        impl<T: #(From<#fixed_names>)+*> FromFixed for T {}

        /// A value type that every packed array of a fixed layout converts into, as a view of
        /// the input (owned values copy it).
        pub trait FromPackedFixed<'a>: #(From<PackedRef<'a, #packed_elements>>)+* {}
        impl<'a, T: #(From<PackedRef<'a, #packed_elements>>)+*> FromPackedFixed<'a> for T {}
    }
}

fn emit_struct(k: &KindDef, l: &Layout) -> TokenStream {
    let name = ident(&k.name);
    let doc = format!("{}.", k.description);
    let fields = l.fields.iter().map(|f| {
        let fname = ident(&f.name);
        let fdoc = if f.description.is_empty() {
            f.name.clone()
        } else {
            f.description.clone()
        };
        let ty = match &f.ty {
            StructType::Scalar(s) => scalar_ty(*s),
            StructType::Kind(t) => {
                let t = ident(t);
                quote!(#t)
            }
            StructType::Array(t, n) => {
                let t = ident(t);
                let n = lit(*n as u64);
                quote!([#t; #n])
            }
        };
        (
            quote! { #[doc = #fdoc] pub #fname: #ty },
            quote!(#fname: #ty),
            quote!(#fname),
        )
    });
    let (decls, (params, names)): (Vec<_>, (Vec<_>, Vec<_>)) =
        fields.map(|(a, b, c)| (a, (b, c))).unzip();
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Default)]
        pub struct #name { #(#decls),* }

        impl #name {
            /// Builds the value from its fields, in declaration order.
            pub const fn new(#(#params),*) -> #name { #name { #(#names),* } }
        }
    }
}

fn emit_layout(k: &KindDef, l: &Layout, t: &Type, packed: Option<&KindDef>) -> TokenStream {
    let name = ident(&k.name);
    let kind = ident(&k.name);
    let narrow: usize = t
        .fields
        .iter()
        .map(|f| f.len.as_const().unwrap_or(0) as usize)
        .sum();
    let wide_size: usize = if t.has_wide() {
        t.fields
            .iter()
            .map(|f| f.widened().1.as_const().unwrap_or(0) as usize)
            .sum()
    } else {
        narrow
    };
    let (narrow_lit, wide_lit) = (lit(narrow as u64), lit(wide_size as u64));

    let read = |f: &Field, wide: bool| -> TokenStream {
        let target = access(quote!(v), f.accessor.as_deref().unwrap_or(&f.name));
        match f.ty {
            FieldType::Real => {
                let at = if wide {
                    payload_offset(&f.widened().0)
                } else {
                    payload_offset(&f.offset)
                };
                quote! { #target = read_real(b, #at, #wide); }
            }
            FieldType::I32 => {
                let at = payload_offset(&f.offset);
                quote! { #target = read_i32(b, #at); }
            }
            _ => {
                let at = payload_offset(&f.offset);
                quote! { #target = f32::from_bits(read_f32_bits(b, #at)); }
            }
        }
    };
    let read_body = if t.has_wide() {
        let w = t.fields.iter().map(|f| read(f, true));
        let n = t.fields.iter().map(|f| read(f, false));
        quote! { if wide { #(#w)* } else { #(#n)* } }
    } else {
        let n = t.fields.iter().map(|f| read(f, false));
        quote! { let _ = wide; #(#n)* }
    };
    let writes = t.fields.iter().map(|f| {
        let src = access(quote!(self), f.accessor.as_deref().unwrap_or(&f.name));
        match f.ty {
            FieldType::Real => quote! { write_real(out, #src, wide); },
            FieldType::I32 => quote! { write_i32(out, #src); },
            _ => quote! { write_f32(out, #src); },
        }
    });
    let write_prelude = if t.has_wide() {
        quote!()
    } else {
        quote! { let _ = wide; }
    };
    let components = l.components.iter().map(component_const);
    let visits = l.components.iter().map(|c| {
        let src = access(quote!(self), &c.path);
        match c.scalar {
            Scalar::Real => quote! { f(#src); },
            Scalar::I32 => quote! { f(f64::from(#src)); },
            Scalar::F32 => quote! { f(real_from_f32_bits(#src.to_bits())); },
        }
    });
    let real_paths: Vec<TokenStream> = l
        .components
        .iter()
        .filter(|c| c.scalar == Scalar::Real)
        .map(|c| access(quote!(self), &c.path))
        .collect();
    let fits = if real_paths.is_empty() {
        quote!(true)
    } else {
        quote!(#(fits_f32(#real_paths))&&*)
    };
    let builds = l.components.iter().enumerate().map(|(i, c)| {
        let dst = access(quote!(v), &c.path);
        let i = lit(i as u64);
        match c.scalar {
            Scalar::Real => quote! { #dst = f(#i); },
            Scalar::I32 => quote! { #dst = f(#i) as i32; },
            Scalar::F32 => quote! { #dst = f32::from_bits(real_to_f32_bits(f(#i))); },
        }
    });
    let from_pat = if boxed(k) {
        quote!(Variant::#kind(x) => Some(**x))
    } else {
        quote!(Variant::#kind(x) => Some(*x))
    };
    let into_variant = if boxed(k) {
        quote!(Variant::#kind(Box::new(self)))
    } else {
        quote!(Variant::#kind(self))
    };
    let packed_impl = packed.map(|p| {
        let pk = ident(&p.name);
        quote! {
            impl PackedLayout for #name {
                const PACKED_KIND: Kind = Kind::#pk;
                fn pack(v: Vec<#name>) -> Variant { Variant::#pk(v) }
                fn unpack(v: &Variant) -> Option<&[#name]> {
                    match v { Variant::#pk(x) => Some(x), _ => None }
                }
            }
        }
    });
    let packed_const = match packed {
        Some(p) => {
            let pk = ident(&p.name);
            quote!(Some(Kind::#pk))
        }
        None => quote!(None),
    };
    quote! {
        impl FixedLayout for #name {
            const KIND: Kind = Kind::#kind;
            const PACKED: Option<Kind> = #packed_const;
            const COMPONENTS: &'static [Component] = &[#(#components),*];
            const SIZE: usize = #narrow_lit;
            const WIDE_SIZE: usize = #wide_lit;
            #[inline]
            fn read(b: &[u8], wide: bool) -> #name {
                let mut v = #name::default();
                #read_body
                v
            }
            #[inline]
            fn write(&self, wide: bool, out: &mut Vec<u8>) {
                #write_prelude
                #(#writes)*
            }
            fn visit(&self, f: &mut dyn FnMut(f64)) {
                #(#visits)*
            }
            #[inline]
            fn reals_fit_f32(&self) -> bool {
                #fits
            }
            fn build(f: &mut dyn FnMut(usize) -> f64) -> #name {
                let mut v = #name::default();
                #(#builds)*
                v
            }
            #[inline]
            fn from_value(v: &Variant) -> Option<#name> {
                match v { #from_pat, _ => None }
            }
            #[inline]
            fn into_variant(self) -> Variant { #into_variant }
        }
        #packed_impl
    }
}

fn component_const(c: &Component) -> TokenStream {
    let path = &c.path;
    let scalar = scalar_variant(c.scalar);
    let default = match c.text_default {
        Some(d) => quote!(Some(#d)),
        None => quote!(None),
    };
    quote!(Component { path: #path, scalar: #scalar, text_default: #default })
}

/// `src/generated/value.rs`.
pub fn emit_value(spec: &Spec) -> TokenStream {
    let present: Vec<&KindDef> = spec
        .kinds
        .iter()
        .filter(|k| k.model != Model::Absent)
        .collect();
    let variant_arms = present.iter().map(|k| {
        let v = ident(&k.name);
        let doc = format!("{}.", k.description);
        match owned_payload(k) {
            Some(ty) => quote! { #[doc = #doc] #v(#ty) },
            None => quote! { #[doc = #doc] #v },
        }
    });
    let kind_arms = kind_arms(&present);
    let fixed: Vec<(&KindDef, &Layout)> = fixed_kinds(spec).collect();
    let packed: Vec<(&KindDef, &str)> = packed_kinds(spec).collect();
    let as_fixed = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        if boxed(k) {
            quote!(Variant::#v(x) => Some(&**x))
        } else {
            quote!(Variant::#v(x) => Some(x))
        }
    });
    // The math kinds a `Variant` holds inline: nothing of their own to free (see
    // `owns_memory` in variant/mod.rs, which skips dropping them).
    let inline_fixed = fixed.iter().filter(|(k, _)| !boxed(k)).map(|(k, _)| {
        let v = ident(&k.name);
        quote!(Variant::#v(x) => copy_payload(x))
    });
    let as_packed = packed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        quote!(Variant::#v(x) => Some(x))
    });
    let fixed_from = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        quote!(Kind::#v => Some(<#v as FixedLayout>::build(f).into_variant()))
    });
    let packed_from = packed.iter().map(|(k, e)| {
        let v = ident(&k.name);
        let e = ident(e);
        quote!(Kind::#v => Some(Variant::#v(build_packed::<#e>(len, f))))
    });
    let with_fixed = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        quote!(crate::generated::kinds::Kind::#v => { type $T = crate::variant::math::#v; $body })
    });
    let match_fixed = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        let deref = if boxed(k) { quote!(&**$x) } else { quote!($x) };
        quote!(crate::variant::value::Variant::#v($x) => {
            let $x: &crate::variant::math::#v = #deref;
            $body
        })
    });
    // The same arms with their own names, for `match_value!`, which has both.
    let value_packed = packed.iter().map(|(k, e)| {
        let v = ident(&k.name);
        let e = ident(e);
        quote!(crate::variant::value::Variant::#v($xs) => {
            let $xs: &[crate::variant::math::#e] = $xs;
            $pbody
        })
    });
    let with_packed = packed.iter().map(|(k, e)| {
        let v = ident(&k.name);
        let e = ident(e);
        quote!(crate::generated::kinds::Kind::#v => { type $T = crate::variant::math::#e; $body })
    });
    let from_fixed = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        quote! {
            impl From<#v> for Variant {
                fn from(x: #v) -> Variant { x.into_variant() }
            }
        }
    });
    let from_packed = packed.iter().map(|(k, e)| {
        let v = ident(&k.name);
        let e = ident(e);
        quote! {
            impl From<Vec<#e>> for Variant {
                fn from(x: Vec<#e>) -> Variant { Variant::#v(x) }
            }
            impl<'a> From<PackedRef<'a, #e>> for Variant {
                fn from(x: PackedRef<'a, #e>) -> Variant { Variant::#v(x.to_vec()) }
            }
        }
    });
    // The list of fixed kinds for `for_each_fixed!`: each with the packed array a Rust `Vec`
    // of it converts to, or `array`.
    let fixed_list = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        match packed.iter().find(|(p, e)| *e == k.name && p.rust_vec) {
            Some((p, _)) => {
                let p = ident(&p.name);
                quote!(#v => packed #p)
            }
            None => quote!(#v => array),
        }
    });
    quote! {
        #![doc = "The value enum, one variant per kind of the spec, and the per-kind dispatch that the"]
        #![doc = "hand-written modules expand: fixed layouts and packed arrays of them are handled"]
        #![doc = "through `FixedLayout` / `PackedLayout` and the `with_fixed!` / `with_packed!` macros."]
        // A small spec (the golden test's) leaves some of the payload types unused.
        #![allow(unused_imports)]

        use std::borrow::Cow;
        use crate::generated::kinds::Kind;
        use crate::variant::math::*;
        use crate::variant::layout::{FixedLayout, FixedValue, PackedLayout, PackedValue};
        use crate::variant::{Array, Dictionary, GString, NodePath, Object, Signal, StringName};
        use crate::variant::packed::PackedRef;

        /// A Godot value.
        ///
        /// Names follow Godot 4 (`Float`, `Quaternion`, `Transform3D`, `Packed*Array`); Godot 3's
        /// `REAL`, `Quat`, `Transform` and `Pool*Array` and Pandemonium's extra types map onto the
        /// same variants. Math types larger than 32 bytes are boxed so that a `Variant` stays small.
        ///
        /// ```
        /// use gdvariant::{from_text, Dialect, Variant};
        /// let mut save = from_text(r#"{"players": [{"name": "ann", "hp": 90}]}"#, Dialect::Godot4)?;
        /// assert_eq!(save["players"][0]["name"].as_str(), Some("ann"));
        /// save["players"][0]["hp"] = Variant::Int(80);
        /// assert_eq!(save.pointer("/players/0/hp"), Some(&Variant::Int(80)));
        /// assert_eq!(save.to_string(), "{\n\"players\": [{\n\"hp\": 80,\n\"name\": \"ann\"\n}]\n}");
        /// # Ok::<(), gdvariant::TextError>(())
        /// ```
        #[derive(Clone, Debug, PartialEq, Default)]
        pub enum Variant {
            #[default]
            #(#variant_arms),*
        }


        impl Variant {
            /// The kind of this value (its type, dialect-independent).
            pub fn kind(&self) -> Kind {
                match self { #(#kind_arms),* }
            }

            /// The value as a fixed layout (a math type), if it is one.
            pub fn as_fixed(&self) -> Option<&dyn FixedValue> {
                match self { #(#as_fixed,)* _ => None }
            }

            /// The value as a packed array of a fixed layout, if it is one.
            pub fn as_packed(&self) -> Option<&dyn PackedValue> {
                match self { #(#as_packed,)* _ => None }
            }

            /// Whether the value is a math kind held inline (not boxed), whose payload owns no
            /// memory: dropping it frees nothing.
            #[inline(always)]
            pub(crate) fn is_inline_fixed(&self) -> bool {
                match self { #(#inline_fixed,)* _ => false }
            }
        }

        /// `true`, for payloads that are `Copy` only: were the generator to box a math kind
        /// that [`Variant::is_inline_fixed`] lists, this would stop compiling rather than let
        /// its box leak.
        #[inline(always)]
        fn copy_payload<T: Copy>(_: &T) -> bool {
            true
        }


        /// A value of fixed kind `kind` from its components in order (`f(i)` is component `i`);
        /// `None` if `kind` is not a fixed layout.
        pub fn fixed_from(kind: Kind, f: &mut dyn FnMut(usize) -> f64) -> Option<Variant> {
            match kind { #(#fixed_from,)* _ => None }
        }

        /// A packed array of kind `kind` with `len` elements from their components in order
        /// (`f(i)` is the `i`th component of the whole array); `None` if `kind` is not one.
        pub fn packed_from(kind: Kind, len: usize, f: &mut dyn FnMut(usize) -> f64) -> Option<Variant> {
            match kind { #(#packed_from,)* _ => None }
        }

        fn build_packed<T: FixedLayout>(len: usize, f: &mut dyn FnMut(usize) -> f64) -> Vec<T> {
            let n = T::COMPONENTS.len();
            (0..len).map(|e| T::build(&mut |i| f(e * n + i))).collect()
        }

        /// `with_fixed!(kind, T => body, _ => other)`: `body` with `T` the struct of fixed kind
        /// `kind`, or `other` for any other kind.
        macro_rules! with_fixed {
            ($kind:expr, $T:ident => $body:expr, _ => $other:expr) => {
                match $kind { #(#with_fixed)* _ => $other }
            };
        }
        pub(crate) use with_fixed;


        /// `match_value!(value, fixed x => body, packed xs => pbody, { arms })`: one `match` of
        /// `value` with the caller's `arms` (which must not end in a catch-all) and, for every
        /// fixed layout and packed array of one, `body` or `pbody`: one jump (a second `match`
        /// in a catch-all arm cost the encoder 2-3% more instructions on small values).
        macro_rules! match_value {
            ($v:expr, fixed $x:ident => $body:expr, packed $xs:ident => $pbody:expr, { $($arms:tt)* }) => {
                match $v { $($arms)* #(#match_fixed)* #(#value_packed)* }
            };
        }
        pub(crate) use match_value;


        /// `with_packed!(kind, T => body, _ => other)`: `body` with `T` the element struct of
        /// packed kind `kind`, or `other` for any other kind.
        macro_rules! with_packed {
            ($kind:expr, $T:ident => $body:expr, _ => $other:expr) => {
                match $kind { #(#with_packed)* _ => $other }
            };
        }
        pub(crate) use with_packed;

        /// `for_each_fixed!(m)` calls `m! { Vector2 => packed PackedVector2Array, Rect2 => array, … }`:
        /// every fixed kind with the packed array a Rust `Vec` of it converts to.
        macro_rules! for_each_fixed {
            ($m:ident) => {
                $m! { #(#fixed_list),* }
            };
        }
        pub(crate) use for_each_fixed;

        #(#from_fixed)*
        #(#from_packed)*

    }
}

/// `Self::Int(_) => Kind::Int` for every kind the enums hold.
fn kind_arms(present: &[&KindDef]) -> Vec<TokenStream> {
    present
        .iter()
        .map(|k| {
            let v = ident(&k.name);
            if k.model == Model::Unit {
                quote!(Self::#v => Kind::#v)
            } else {
                quote!(Self::#v(_) => Kind::#v)
            }
        })
        .collect()
}

/// `src/generated/value_ref.rs`: the borrowed value enum, part of the borrowed views' layer
/// (its containers are views that decode lazily).
pub fn emit_value_ref(spec: &Spec) -> TokenStream {
    let present: Vec<&KindDef> = spec
        .kinds
        .iter()
        .filter(|k| k.model != Model::Absent)
        .collect();
    let ref_arms = present.iter().map(|k| {
        let v = ident(&k.name);
        let doc = format!("{}.", k.description);
        match ref_payload(k) {
            Some(ty) => quote! { #[doc = #doc] #v(#ty) },
            None => quote! { #[doc = #doc] #v },
        }
    });
    let kind_arms = kind_arms(&present);
    let fixed: Vec<(&KindDef, &Layout)> = fixed_kinds(spec).collect();
    let packed: Vec<(&KindDef, &str)> = packed_kinds(spec).collect();
    let ref_as_fixed = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        if boxed(k) {
            quote!(VariantRef::#v(x) => Some(&**x))
        } else {
            quote!(VariantRef::#v(x) => Some(x))
        }
    });
    let ref_as_packed = packed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        quote!(VariantRef::#v(x) => Some(x))
    });
    let owned_fixed = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        if boxed(k) {
            quote!(VariantRef::#v(x) => Some(Variant::#v(x.clone())))
        } else {
            quote!(VariantRef::#v(x) => Some(Variant::#v(*x)))
        }
    });
    let owned_packed = packed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        quote!(VariantRef::#v(x) => Some(Variant::#v(x.to_vec())))
    });
    let from_fixed = fixed.iter().map(|(k, _)| {
        let v = ident(&k.name);
        let wrap = if boxed(k) {
            quote!(Box::new(x))
        } else {
            quote!(x)
        };
        quote! {
            impl<'a> From<#v> for VariantRef<'a> {
                fn from(x: #v) -> VariantRef<'a> { VariantRef::#v(#wrap) }
            }
        }
    });
    let from_packed = packed.iter().map(|(k, e)| {
        let v = ident(&k.name);
        let e = ident(e);
        quote! {
            impl<'a> From<PackedRef<'a, #e>> for VariantRef<'a> {
                fn from(x: PackedRef<'a, #e>) -> VariantRef<'a> { VariantRef::#v(x) }
            }
        }
    });
    quote! {
        #![doc = "The borrowed value enum, one variant per kind of the spec (the borrowed views' layer:"]
        #![doc = "its containers are views that decode lazily)."]
        #![allow(unused_imports)]

        use std::borrow::Cow;
        use crate::generated::kinds::Kind;
        use crate::variant::math::*;
        use crate::variant::layout::{FixedValue, PackedValue};
        use crate::variant::{ArrayType, DictionaryType, StrRef, Variant};
        use crate::borrowed::{ArrayRef, DictionaryRef, NodePathRef, ObjectRef, SignalRef};
        use crate::variant::packed::PackedRef;

        /// A Godot value borrowed from encoded bytes: [`Variant`] with its text as [`StrRef`]
        /// (borrowed, except for the rare string the engine's reading changes) and its packed
        /// arrays as views ([`PackedRef`]) of the input.
        ///
        /// The type information of typed containers is owned (it is small and rare).
        #[derive(Clone, Debug, PartialEq, Default)]
        pub enum VariantRef<'a> {
            #[default]
            #(#ref_arms),*
        }

        impl<'a> VariantRef<'a> {
            /// The kind of this value.
            pub fn kind(&self) -> Kind {
                match self { #(#kind_arms),* }
            }

            /// The value as a fixed layout (a math type), if it is one.
            pub fn as_fixed(&self) -> Option<&dyn FixedValue> {
                match self { #(#ref_as_fixed,)* _ => None }
            }

            /// The value as a packed array view of a fixed layout, if it is one.
            pub fn as_packed(&self) -> Option<&dyn PackedValue> {
                match self { #(#ref_as_packed,)* _ => None }
            }

            /// The owned value of a fixed layout or a packed array of one.
            pub(crate) fn fixed_to_owned(&self) -> Option<Variant> {
                match self { #(#owned_fixed,)* #(#owned_packed,)* _ => None }
            }
        }

        #(#from_fixed)*
        #(#from_packed)*
    }
}

fn owned_payload(k: &KindDef) -> Option<TokenStream> {
    match &k.model {
        Model::Unit | Model::Absent => None,
        Model::Types(o, _) => Some(
            syn::parse_str::<syn::Type>(o)
                .map(|t| quote!(#t))
                .unwrap_or_default(),
        ),
        Model::Derived => Some(derived_payload(k, false)),
    }
}

fn ref_payload(k: &KindDef) -> Option<TokenStream> {
    match &k.model {
        Model::Unit | Model::Absent => None,
        Model::Types(_, b) => Some(
            syn::parse_str::<syn::Type>(b)
                .map(|t| quote!(#t))
                .unwrap_or_default(),
        ),
        Model::Derived => Some(derived_payload(k, true)),
    }
}

fn derived_payload(k: &KindDef, borrowed: bool) -> TokenStream {
    if let Some(e) = &k.packed_of {
        let e = ident(e);
        return if borrowed {
            quote!(PackedRef<'a, #e>)
        } else {
            quote!(Vec<#e>)
        };
    }
    let t = ident(&k.name);
    if boxed(k) {
        quote!(Box<#t>)
    } else {
        quote!(#t)
    }
}
