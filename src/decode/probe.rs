//! The validating pass of lazy borrowed decoding: every check of `decode`, nothing built but
//! the fingerprints of dictionary keys.

use super::*;

/// What the validating pass of lazy borrowed decoding keeps of a value: enough of a
/// dictionary key to apply the duplicate-key rule, nothing of anything else (its containers
/// keep no elements, see [`Build::KEEP`]).
///
/// Keys are compared by a 64-bit fingerprint consistent with [`key::same_key`]: different
/// fingerprints prove keys different; equal ones count as a possibly repeated key, which
/// sends the whole decode to the eager result, where the exact rule is applied. So a crafted
/// collision costs speed, never correctness. Text is fingerprinted only when it is a key.
#[derive(Clone, Copy)]
pub(crate) enum Probe<'a> {
    Text(&'a str),
    Name(&'a str),
    /// A leaf's fingerprint, or a kind's alone for values whose identity as keys is not
    /// worked out here (two such keys of one kind count as possibly the same).
    Fingerprint(u64),
}

impl<T: FixedLayout> From<T> for Probe<'_> {
    #[inline]
    fn from(x: T) -> Self {
        // Every component through `hash_key_real` (integers and f32 widen exactly), so values
        // that compare equal as keys get the same fingerprint.
        Probe::Fingerprint(fingerprint(|h| {
            T::KIND.hash(h);
            x.visit(&mut |c| hash_key_real(c, h));
        }))
    }
}

impl<'a, T: PackedElement> From<PackedRef<'a, T>> for Probe<'a> {
    fn from(_: PackedRef<'a, T>) -> Self {
        Probe::of_kind(<T as crate::variant::packed::sealed::Wrap>::kind())
    }
}

impl Probe<'_> {
    #[inline(always)]
    pub(crate) fn fingerprint(&self) -> u64 {
        match *self {
            Probe::Text(s) => fingerprint(|h| (Kind::String, s).hash(h)),
            Probe::Name(s) => fingerprint(|h| (Kind::StringName, s).hash(h)),
            Probe::Fingerprint(x) => x,
        }
    }

    pub(crate) fn of_kind(kind: Kind) -> Probe<'static> {
        Probe::Fingerprint(fingerprint(|h| kind.hash(h)))
    }
}

#[inline(always)]
pub(crate) fn fingerprint(f: impl FnOnce(&mut rustc_hash::FxHasher)) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    f(&mut h);
    // FxHasher's last step is a multiply, whose high bits mix best; `key_bit` takes the top six.
    h.finish()
}

/// The keys of a dictionary being checked, as fingerprints in the decode's scratch stack:
/// a dictionary's keys lie above those of the dictionaries it is nested in, and are given
/// back when it closes. The stack lives inline for ordinary input, so checking allocates
/// nothing; a frame holds only where its keys start.
pub(crate) struct ProbeKeys {
    /// Where this dictionary's keys start in the scratch stack (`None` before the first).
    pub(crate) start: Option<usize>,
    pub(crate) expected: usize,
}

/// The fingerprints of the keys of every open dictionary of the validating pass.
pub(crate) type KeyStack = SmallVec<[u64; 64]>;

impl ProbeKeys {
    #[inline(always)]
    pub(crate) fn keys<'s>(&self, s: &'s KeyStack) -> &'s [u64] {
        match self.start {
            Some(start) => &s[start..],
            None => &[],
        }
    }
}

impl<'a> Entries<Probe<'a>> for ProbeKeys {
    type Scratch = KeyStack;
    #[inline]
    fn with_capacity(n: usize) -> Self {
        ProbeKeys {
            start: None,
            expected: n,
        }
    }
    #[inline(always)]
    fn len(&self, s: &KeyStack) -> usize {
        self.keys(s).len()
    }
    fn capacity(&self) -> usize {
        self.expected
    }
    #[inline(always)]
    fn same_key_at(&self, s: &KeyStack, i: usize, key: &Probe<'a>) -> bool {
        self.keys(s)[i] == key.fingerprint()
    }
    fn hash_at<H: Hasher>(&self, s: &KeyStack, i: usize, h: &mut H) {
        self.keys(s)[i].hash(h)
    }
    #[inline(always)]
    fn push(&mut self, s: &mut KeyStack, key: Probe<'a>, _value: Probe<'a>) {
        if self.start.is_none() {
            // Dictionaries nested in this one have given their keys back by now.
            self.start = Some(s.len());
        }
        s.push(key.fingerprint())
    }
    #[inline]
    fn set_value(&mut self, _i: usize, _value: Probe<'a>) {}
    #[inline]
    fn close(&self, s: &mut KeyStack) {
        if let Some(start) = self.start {
            s.truncate(start);
        }
    }
}

impl<'a> Build<'a> for Probe<'a> {
    const KEEP: bool = false;
    type Str = StrRef<'a>;
    type Entries = ProbeKeys;
    #[inline]
    fn text(s: StrRef<'a>) -> StrRef<'a> {
        s
    }
    #[inline]
    fn scalar(s: Scalar) -> Probe<'a> {
        // The common key types straight from the scalar, reals through `hash_key_real` (the
        // one place that says how keys compare reals). Not `hash_variant_key` over a built
        // `Variant`: that costs the validating pass 12% on W3, and keeping the `Variant` until
        // it is known to be a key costs 60% (a bigger probe with drop glue).
        Probe::Fingerprint(fingerprint(|h| match s {
            Scalar::Int(i) => (Kind::Int, i).hash(h),
            Scalar::Float(x) => {
                Kind::Float.hash(h);
                hash_key_real(x, h)
            }
            Scalar::Bool(b) => (Kind::Bool, b).hash(h),
            Scalar::Rid(r) => (Kind::Rid, r).hash(h),
            // Identity as a key not worked out: the kind alone (conservative, see above).
            other => <Variant as Build<'a>>::scalar(other).kind().hash(h),
        }))
    }
    #[inline]
    fn string(s: StrRef<'a>) -> Probe<'a> {
        match s {
            StrRef::Borrowed(s) => Probe::Text(s),
            // Text the engine's reading rewrote: fingerprinted now, as it cannot be kept
            // (the same fingerprint as the same text arriving unchanged).
            StrRef::Owned(s) => Probe::Fingerprint(Probe::Text(&s).fingerprint()),
        }
    }
    #[inline]
    fn string_name(s: StrRef<'a>) -> Probe<'a> {
        match s {
            StrRef::Borrowed(s) => Probe::Name(s),
            StrRef::Owned(s) => Probe::Fingerprint(Probe::Name(&s).fingerprint()),
        }
    }
    fn node_path(_: Vec<StrRef<'a>>, _: Vec<StrRef<'a>>, _: bool) -> Probe<'a> {
        Probe::of_kind(Kind::NodePath)
    }
    fn signal(_: StrRef<'a>, _: u64) -> Probe<'a> {
        Probe::of_kind(Kind::Signal)
    }
    fn byte_array(_: &'a [u8]) -> Probe<'a> {
        Probe::of_kind(Kind::PackedByteArray)
    }
    fn string_array(_: Vec<StrRef<'a>>) -> Probe<'a> {
        Probe::of_kind(Kind::PackedStringArray)
    }
    #[inline]
    fn array(_: Vec<Probe<'a>>, _: Option<Box<ArrayType>>) -> Probe<'a> {
        Probe::of_kind(Kind::Array)
    }
    #[inline]
    fn dictionary(
        _: ProbeKeys,
        _: Option<Box<DictionaryType>>,
        _: Option<Box<KeyIndex>>,
    ) -> Probe<'a> {
        Probe::of_kind(Kind::Dictionary)
    }
    fn object(_: StrRef<'a>, _: Vec<(StrRef<'a>, Probe<'a>)>) -> Probe<'a> {
        Probe::of_kind(Kind::Object)
    }
    #[inline(always)]
    fn same_key(a: &Probe<'a>, b: &Probe<'a>) -> bool {
        a.fingerprint() == b.fingerprint()
    }
    fn hash_key<H: Hasher>(k: &Probe<'a>, h: &mut H) {
        k.fingerprint().hash(h)
    }
    #[inline(always)]
    fn key_bit(k: &Probe<'a>) -> u32 {
        (k.fingerprint() >> 58) as u32
    }
}
