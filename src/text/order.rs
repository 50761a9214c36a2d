//! The order in which the engines print Dictionary keys: their `Variant::operator<` and their
//! introsort, reproduced so that equal-comparing keys land where the engine puts them.
//!
//! Both writers sort the key list before printing (`VariantWriter::write`, case DICTIONARY):
//! 3.x with `keys.sort()` (`Variant::operator<`), 4.x with
//! `keys.sort_custom<StringLikeVariantOrder>()`. `operator<` orders by type id first, then by
//! `Variant::evaluate(OP_LESS)`, which is `false` for types without `<` (so those keys all
//! compare equal). The sort is `SortArray` (core/templates/sort_array.h), an unstable
//! introsort, so the position of equal keys is the algorithm's: we run the same algorithm.

use crate::dialect::Dialect;
use crate::generated::kinds::Kind;
use crate::variant::{Object, Variant};
use crate::version::Version;
use std::cmp::Ordering;

/// The engine's type id of `v` in `dialect`, which is the first sort key. Values of kinds the
/// dialect lacks sort after every type it has, by their Godot 4 order.
fn type_rank(v: &Variant, dialect: Dialect) -> u32 {
    let kind = match v {
        // A null Object is printed `null`, but as a key it is still an OBJECT-typed Variant.
        Variant::Object(_) => Kind::Object,
        _ => v.kind(),
    };
    let newest = dialect.newest();
    dialect
        .id_of(newest, kind)
        .or_else(|| {
            Dialect::Godot4
                .id_of(Version::new(4, 3, 0), kind)
                .map(|id| 1000 + id)
        })
        .unwrap_or(2000)
}

/// `Variant::operator<` of the dialect's engine (3.x `core/variant_op.cpp` OP_LESS cases;
/// 4.x `core/variant/variant_op.cpp` `register_op<OperatorEvaluatorLess…>`).
pub fn variant_less(a: &Variant, b: &Variant, dialect: Dialect) -> bool {
    let (ra, rb) = (type_rank(a, dialect), type_rank(b, dialect));
    if ra != rb {
        return ra < rb;
    }
    let godot4 = dialect == Dialect::Godot4;
    match (a, b) {
        (Variant::Bool(x), Variant::Bool(y)) => !x & y,
        (Variant::Int(x), Variant::Int(y)) => x < y,
        (Variant::Float(x), Variant::Float(y)) => x < y,
        (Variant::String(x), Variant::String(y)) => string_less(x, y),
        (Variant::StringName(x), Variant::StringName(y)) => string_less(&x.0, &y.0),
        // 4.x `Vector2::operator<` / `Vector3::operator<`: the first component that is not
        // `==` decides.
        (Variant::Vector2(x), Variant::Vector2(y)) if godot4 => lex_less(&[x.x, x.y], &[y.x, y.y]),
        (Variant::Vector3(x), Variant::Vector3(y)) if godot4 => {
            lex_less(&[x.x, x.y, x.z], &[y.x, y.y, y.z])
        }
        // 3.x (core/math/vector2.h, vector3.h) compares with `Math::is_equal_approx`
        // (observed: 3.2.3 orders `Vector2(7.3e-10, -94)` before `Vector2(-1.1e-38, 2e-39)`,
        // their x being "equal").
        (Variant::Vector2(x), Variant::Vector2(y)) => approx_lex_less(&[x.x, x.y], &[y.x, y.y]),
        (Variant::Vector3(x), Variant::Vector3(y)) => {
            approx_lex_less(&[x.x, x.y, x.z], &[y.x, y.y, y.z])
        }
        (Variant::Vector2i(x), Variant::Vector2i(y)) => (x.x, x.y) < (y.x, y.y),
        (Variant::Vector3i(x), Variant::Vector3i(y)) => (x.x, x.y, x.z) < (y.x, y.y, y.z),
        (Variant::Vector4(x), Variant::Vector4(y)) if godot4 => {
            lex_less(&[x.x, x.y, x.z, x.w], &[y.x, y.y, y.z, y.w])
        }
        (Variant::Vector4i(x), Variant::Vector4i(y)) if godot4 => {
            (x.x, x.y, x.z, x.w) < (y.x, y.y, y.z, y.w)
        }
        (Variant::Rid(x), Variant::Rid(y)) => x < y,
        (Variant::Array(x), Variant::Array(y)) => {
            if godot4 {
                // 4.x `Array::operator<`: lexicographic, then shorter first.
                for (p, q) in x.items.iter().zip(&y.items) {
                    if variant_less(p, q, dialect) {
                        return true;
                    }
                    if variant_less(q, p, dialect) {
                        return false;
                    }
                }
                x.items.len() < y.items.len()
            } else {
                // 3.x OP_LESS for ARRAY, verbatim in effect: false if b is shorter, else true
                // as soon as some a[i] is not < b[i] (sic).
                if y.items.len() < x.items.len() {
                    return false;
                }
                x.items
                    .iter()
                    .zip(&y.items)
                    .any(|(p, q)| !variant_less(p, q, dialect))
            }
        }
        // 3.x DEFAULT_OP_ARRAY_LT on pool arrays: shorter is less; same length: "less" as soon
        // as one element differs. (Longer-than-b reads past b in the engine; treated as less.)
        (Variant::PackedByteArray(x), Variant::PackedByteArray(y)) if !godot4 => pool_less(x, y),
        (Variant::PackedInt32Array(x), Variant::PackedInt32Array(y)) if !godot4 => pool_less(x, y),
        (Variant::PackedFloat32Array(x), Variant::PackedFloat32Array(y)) if !godot4 => {
            pool_less(x, y)
        }
        (Variant::PackedStringArray(x), Variant::PackedStringArray(y)) if !godot4 => {
            pool_less(x, y)
        }
        (Variant::PackedColorArray(x), Variant::PackedColorArray(y)) if !godot4 => pool_less(x, y),
        // Objects compare by pointer in the engine, which a value as data does not have.
        (Variant::Object(Object::Id(x)), Variant::Object(Object::Id(y))) => x < y,
        _ => false,
    }
}

/// `String::operator<`: code point by code point, which is byte order for UTF-8.
fn string_less(a: &str, b: &str) -> bool {
    a.cmp(b) == Ordering::Less
}

/// `Vector2/3/4::operator<`: the first component that is not `==` decides.
fn lex_less(a: &[f64], b: &[f64]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x < y;
        }
    }
    false
}

/// The 3.x form: each component but the last is compared with `is_equal_approx`, in
/// `real_t` (`float`) arithmetic; the last with `<`.
fn approx_lex_less(a: &[f64], b: &[f64]) -> bool {
    let last = a.len() - 1;
    for i in 0..last {
        if !is_equal_approx(a[i] as f32, b[i] as f32) {
            return a[i] < b[i];
        }
    }
    a[last] < b[last]
}

/// `Math::is_equal_approx(real_t, real_t)` of 3.x (core/math/math_funcs.h): exact equality
/// (for infinities), else a difference below `CMP_EPSILON` (1e-5) scaled by `|a|`, at least
/// `CMP_EPSILON`.
fn is_equal_approx(a: f32, b: f32) -> bool {
    if a == b {
        return true;
    }
    const CMP_EPSILON: f32 = 0.00001;
    let tolerance = (CMP_EPSILON * a.abs()).max(CMP_EPSILON);
    (a - b).abs() < tolerance
}

fn pool_less<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    if a.len() < b.len() {
        return true;
    }
    a.iter()
        .enumerate()
        .any(|(i, x)| b.get(i).is_none_or(|y| x != y))
}

/// The 4.x writer's comparator, `StringLikeVariantOrder` (core/variant/variant.h): two
/// string-like keys (String, StringName) compare as strings, anything else by `operator<`.
pub fn key_less(a: &Variant, b: &Variant, dialect: Dialect) -> bool {
    if dialect == Dialect::Godot4 {
        if let (Some(x), Some(y)) = (string_like(a), string_like(b)) {
            return string_less(x, y);
        }
    }
    variant_less(a, b, dialect)
}

fn string_like(v: &Variant) -> Option<&str> {
    match v {
        Variant::String(s) => Some(s),
        Variant::StringName(s) => Some(&s.0),
        _ => None,
    }
}

/// Puts Dictionary entries in the order in which Godot 4 prints their keys, whatever order
/// they came in (a `HashMap`'s changes from run to run), so that the same map always gives
/// the same bytes. Keys the engine leaves unordered (two Arrays, NaN) are first put in the
/// order of their Debug text, which is the same every run, and then sorted by the engine's
/// algorithm (whose result depends only on that starting order).
pub(crate) fn sort_entries_by_key(entries: &mut [(Variant, Variant)]) {
    let less =
        |a: &(Variant, Variant), b: &(Variant, Variant)| key_less(&a.0, &b.0, Dialect::Godot4);
    engine_sort(entries, &less);
    // Strictly increasing neighbours: the order was total, hence the only sorted one.
    if entries.windows(2).all(|w| less(&w[0], &w[1])) {
        return;
    }
    entries.sort_by_cached_key(|(k, _)| format!("{k:?}"));
    engine_sort(entries, &less);
}

/// Sorts `items` as the engine's `SortArray::sort` does (introsort, median of three, heap
/// sort past the depth limit, final insertion sort), with the bounds checks of a debug
/// build (`SORT_ARRAY_VALIDATE_ENABLED`: both fixture engines are debug builds), which also
/// keep every index in range whatever the comparator says.
pub fn engine_sort<T: Clone>(items: &mut [T], less: &dyn Fn(&T, &T) -> bool) {
    let len = items.len();
    if len == 0 {
        return;
    }
    let s = Sorter { less };
    s.introsort(items, 0, len, bitlog(len) * 2);
    s.final_insertion_sort(items, 0, len);
}

const INTROSORT_THRESHOLD: usize = 16;

fn bitlog(mut n: usize) -> usize {
    let mut k = 0;
    while n > 1 {
        n >>= 1;
        k += 1;
    }
    k
}

struct Sorter<'a, T> {
    less: &'a dyn Fn(&T, &T) -> bool,
}

impl<T: Clone> Sorter<'_, T> {
    fn median_of_3(&self, a: &T, b: &T, c: &T) -> T {
        let l = self.less;
        if l(a, b) {
            if l(b, c) {
                b.clone()
            } else if l(a, c) {
                c.clone()
            } else {
                a.clone()
            }
        } else if l(a, c) {
            a.clone()
        } else if l(b, c) {
            c.clone()
        } else {
            b.clone()
        }
    }

    fn introsort(&self, v: &mut [T], first: usize, mut last: usize, mut depth: usize) {
        while last - first > INTROSORT_THRESHOLD {
            if depth == 0 {
                self.partial_sort(v, first, last, last);
                return;
            }
            depth -= 1;
            let pivot = self.median_of_3(&v[first], &v[first + (last - first) / 2], &v[last - 1]);
            let cut = self.partitioner(v, first, last, &pivot);
            self.introsort(v, cut, last, depth);
            last = cut;
        }
    }

    fn partitioner(&self, v: &mut [T], mut first: usize, mut last: usize, pivot: &T) -> usize {
        let (unmodified_first, unmodified_last) = (first, last);
        let l = self.less;
        loop {
            while l(&v[first], pivot) {
                if first == unmodified_last - 1 {
                    break; // ERR_BAD_COMPARE
                }
                first += 1;
            }
            last -= 1;
            while l(pivot, &v[last]) {
                if last == unmodified_first {
                    break; // ERR_BAD_COMPARE
                }
                last -= 1;
            }
            if first >= last {
                return first;
            }
            v.swap(first, last);
            first += 1;
        }
    }

    fn partial_sort(&self, v: &mut [T], first: usize, last: usize, middle: usize) {
        self.make_heap(v, first, middle);
        for i in middle..last {
            if (self.less)(&v[i], &v[first]) {
                let value = v[i].clone();
                self.pop_heap_to(v, first, middle, i, value);
            }
        }
        self.sort_heap(v, first, middle);
    }

    fn make_heap(&self, v: &mut [T], first: usize, last: usize) {
        if last - first < 2 {
            return;
        }
        let len = last - first;
        let mut parent = (len - 2) / 2;
        loop {
            let value = v[first + parent].clone();
            self.adjust_heap(v, first, parent, len, value);
            if parent == 0 {
                return;
            }
            parent -= 1;
        }
    }

    fn sort_heap(&self, v: &mut [T], first: usize, mut last: usize) {
        while last - first > 1 {
            let value = v[last - 1].clone();
            self.pop_heap_to(v, first, last - 1, last - 1, value);
            last -= 1;
        }
    }

    fn pop_heap_to(&self, v: &mut [T], first: usize, last: usize, result: usize, value: T) {
        v[result] = v[first].clone();
        self.adjust_heap(v, first, 0, last - first, value);
    }

    fn adjust_heap(&self, v: &mut [T], first: usize, mut hole: usize, len: usize, value: T) {
        let top = hole;
        let mut second = 2 * hole + 2;
        while second < len {
            if (self.less)(&v[first + second], &v[first + second - 1]) {
                second -= 1;
            }
            v[first + hole] = v[first + second].clone();
            hole = second;
            second = 2 * (second + 1);
        }
        if second == len {
            v[first + hole] = v[first + second - 1].clone();
            hole = second - 1;
        }
        self.push_heap(v, first, hole, top, value);
    }

    fn push_heap(&self, v: &mut [T], first: usize, mut hole: usize, top: usize, value: T) {
        let mut parent = hole.wrapping_sub(1) / 2;
        while hole > top && (self.less)(&v[first + parent], &value) {
            v[first + hole] = v[first + parent].clone();
            hole = parent;
            parent = hole.wrapping_sub(1) / 2;
        }
        v[first + hole] = value;
    }

    fn unguarded_linear_insert(&self, v: &mut [T], mut last: usize, value: T) {
        let mut next = last - 1;
        while (self.less)(&value, &v[next]) {
            if next == 0 {
                break; // ERR_BAD_COMPARE
            }
            v[last] = v[next].clone();
            last = next;
            next -= 1;
        }
        v[last] = value;
    }

    fn linear_insert(&self, v: &mut [T], first: usize, last: usize) {
        let value = v[last].clone();
        if (self.less)(&value, &v[first]) {
            for i in (first + 1..=last).rev() {
                v[i] = v[i - 1].clone();
            }
            v[first] = value;
        } else {
            self.unguarded_linear_insert(v, last, value);
        }
    }

    fn insertion_sort(&self, v: &mut [T], first: usize, last: usize) {
        if first == last {
            return;
        }
        for i in first + 1..last {
            self.linear_insert(v, first, i);
        }
    }

    fn final_insertion_sort(&self, v: &mut [T], first: usize, last: usize) {
        if last - first > INTROSORT_THRESHOLD {
            self.insertion_sort(v, first, first + INTROSORT_THRESHOLD);
            for i in first + INTROSORT_THRESHOLD..last {
                let value = v[i].clone();
                self.unguarded_linear_insert(v, i, value);
            }
        } else {
            self.insertion_sort(v, first, last);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_a_sort() {
        let mut state = 12345u64;
        for len in 0..200 {
            let mut v: Vec<u32> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 40) as u32 % 50
                })
                .collect();
            let mut want = v.clone();
            want.sort();
            engine_sort(&mut v, &|a, b| a < b);
            assert_eq!(v, want);
        }
    }

    #[test]
    fn survives_a_broken_comparator() {
        let mut v: Vec<u32> = (0..100).collect();
        engine_sort(&mut v, &|_, _| true);
        assert_eq!(v.len(), 100);
    }
}
