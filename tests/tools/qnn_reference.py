"""numpy reimplementation of TVM v0.14's QNN canonicalization (src/relay/qnn/op/*.cc, utils.cc,
src/target/intrin_rule.cc q_multiply_shift), for golden expected values."""
import math
import numpy as np

I32 = np.int32
def w32(a): return np.asarray(a, dtype=np.int64).astype(np.int32)   # wrap to int32 (numpy astype wraps)
def rnd_away(x):
    x = np.asarray(x, dtype=np.float64)
    return np.sign(x) * np.floor(np.abs(x) + 0.5)
def qrange(dt):
    info = np.iinfo(dt); return int(info.min), int(info.max)

def fpm_of(mult):                      # GetFixedPointMultiplierShift
    if mult == 0.0: return 0, 0
    sig, exp = math.frexp(mult)
    m = int(math.copysign(math.floor(abs(sig * 2**31) + 0.5), sig))   # std::round
    if m == 2**31: m //= 2; exp += 1
    return m, exp

def qmulshift(x, m, shift, nearest):   # QMultiplyShift / FixedPointMultiplyToNearest, int64
    x = np.asarray(x, dtype=np.int64)
    ls = np.maximum(shift, 0); rs = np.maximum(-np.asarray(shift), 0); total = rs + 31
    with np.errstate(over='ignore'):
        t = (x << ls) * np.int64(1) * m
        pos = np.left_shift(np.int64(1), total - 1)
        t = t + np.where(nearest & (t < 0), pos - 1, pos)
    return w32(t >> total)

def q_multiply_shift_scalar(x, m, shift):   # tir.q_multiply_shift legalization (scalar UPWARD)
    if m == 1 << 30:
        exp = shift - 1
        if exp > 0: return w32(np.asarray(x, np.int64) << exp)
        e = -exp
        return w32(w32(np.asarray(x, np.int64) + (1 << (e - 1))).astype(np.int64) >> e)
    return qmulshift(x, m, shift, False)

def expand(p, rank, axis):
    p = np.asarray(p)
    if p.ndim == 0: return p
    shape = [1] * rank; shape[axis] = p.size
    return p.reshape(shape)

def requantize(x, in_s, in_zp, out_s, out_zp, axis=-1, rounding="UPWARD", compute="int64", out_dtype="int8"):
    x = np.asarray(x); rank = x.ndim
    ax = axis if axis >= 0 else (rank + axis if rank > 0 else 0)
    in_s = np.asarray(in_s, np.float32); out_s = np.float32(out_s)
    zp = expand(np.asarray(in_zp, np.int32), rank, ax)
    if compute == "int64":
        t = w32(x.astype(np.int64) - 0)
        t = w32(t.astype(np.int64) - zp.astype(np.int64))
        if in_s.ndim == 0:
            if in_s != out_s:
                mult = float(in_s) / float(out_s)
                m, s = fpm_of(mult)
                t = q_multiply_shift_scalar(t, m, s) if rounding == "UPWARD" else qmulshift(t, m, s, True)
        else:
            ms = [fpm_of(float(v) / float(out_s)) for v in in_s.ravel()]
            m = expand(np.array([a for a, _ in ms], np.int64), rank, ax)
            s = expand(np.array([b for _, b in ms], np.int64), rank, ax)
            t = qmulshift(t, m, s, rounding != "UPWARD")
        r = w32(t.astype(np.int64) + int(out_zp))
    else:
        ft = np.float32 if compute == "float32" else np.float64
        t = x.astype(ft) - zp.astype(ft)
        if in_s.ndim == 0:
            if in_s != out_s: t = ft(float(in_s) / float(out_s)) * t
        else:
            t = t * expand(np.array([float(v) / float(out_s) for v in in_s.ravel()], ft), rank, ax)
        t = t + ft(out_zp)
        t = np.floor(t + ft(0.5)) if rounding == "UPWARD" else rnd_away(t)
        r = t.astype(np.int64).astype(np.int32)
    if out_dtype == "int32": return r
    lo, hi = qrange(out_dtype)
    return np.clip(r, lo, hi).astype(out_dtype)

def quantize(x, s, zp, axis=-1, out_dtype="int8"):
    x = np.asarray(x, np.float32); rank = x.ndim; ax = axis if axis >= 0 else rank + axis
    s = expand(np.asarray(s, np.float32), rank, ax); zp = expand(np.asarray(zp, np.int32), rank, ax)
    v = (x / s).astype(np.float32)
    r = (rnd_away(v).astype(np.float32) + zp.astype(np.float32)).astype(np.float32)
    lo, hi = qrange(out_dtype)
    return np.clip(r, np.float32(lo), np.float32(hi)).astype(np.int64).astype(out_dtype)

def dequantize(x, s, zp, axis=-1, out_dtype="float32"):
    x = np.asarray(x); rank = x.ndim; ax = axis if axis >= 0 else rank + axis
    s = expand(np.asarray(s, np.float32), rank, ax); zp = expand(np.asarray(zp, np.int32), rank, ax)
    r = (w32(x.astype(np.int64) - zp).astype(np.float32) * s).astype(np.float32)
    if out_dtype == "float16": r = np.clip(r, -65504, 65504).astype(np.float16)
    return r

def req_or_upcast(x, s, zp, os_, ozp, axis=-1):
    if np.ndim(s) == 0 and np.ndim(zp) == 0 and np.float32(s) == np.float32(os_) and zp == ozp:
        return np.asarray(x).astype(np.int32)
    return requantize(x, s, zp, os_, ozp, axis=axis, out_dtype="int32")

def add(l, r, ls, lz, rs, rz, os_, oz, lax=-1, rax=-1):
    dt = np.asarray(l).dtype
    o = w32(req_or_upcast(l, ls, lz, os_, oz, lax).astype(np.int64) + req_or_upcast(r, rs, rz, os_, oz, rax))
    lo, hi = qrange(dt); return np.clip(w32(o.astype(np.int64) - oz), lo, hi).astype(dt)

def subtract(l, r, ls, lz, rs, rz, os_, oz, lax=-1, rax=-1):
    dt = np.asarray(l).dtype
    o = w32(req_or_upcast(l, ls, lz, os_, oz, lax).astype(np.int64) - req_or_upcast(r, rs, rz, os_, oz, rax))
    lo, hi = qrange(dt); return np.clip(w32(o.astype(np.int64) + oz), lo, hi).astype(dt)

def mul(l, r, ls, lz, rs, rz, os_, oz, lax=-1, rax=-1):
    l = np.asarray(l); r = np.asarray(r); dt = l.dtype
    if np.ndim(ls) == 0 and np.ndim(rs) == 0:
        p = w32((l.astype(np.int64) - lz) * (r.astype(np.int64) - rz))
        ns = np.float32(np.float32(ls) * np.float32(rs))
        return requantize(p, ns, 0, os_, oz, out_dtype=dt.name)
    ax = lax if lax >= 0 else l.ndim + lax
    p = w32((l.astype(np.int64) - expand(lz, l.ndim, ax)) * (r.astype(np.int64) - expand(rz, r.ndim, ax)))
    ns = np.array([np.float32(float(a) * float(b)) for a, b in zip(np.asarray(ls, np.float32), np.asarray(rs, np.float32))], np.float32)
    return requantize(p, ns, 0, os_, oz, axis=lax, out_dtype=dt.name)

def conv2d_nchw(x, w, zx, zw, stride=1, pad=(0, 0, 0, 0), groups=1, out_dtype=np.int32):
    """x NCHW, w OIHW; zw scalar or per O."""
    x = x.astype(np.int64) - zx
    zw = np.asarray(zw); w = w.astype(np.int64) - (zw.reshape(-1, 1, 1, 1) if zw.ndim else zw)
    x = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    N, C, H, W = x.shape; O, Cg, KH, KW = w.shape
    OH = (H - KH) // stride + 1; OW = (W - KW) // stride + 1
    out = np.zeros((N, O, OH, OW), np.int64); Og = O // groups
    for n in range(N):
        for o in range(O):
            g = o // Og
            for i in range(OH):
                for j in range(OW):
                    out[n, o, i, j] = np.sum(x[n, g * Cg:(g + 1) * Cg, i * stride:i * stride + KH, j * stride:j * stride + KW] * w[o])
    return out.astype(out_dtype)

def fmt(a):
    a = np.asarray(a)
    suf = {"int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16", "int32": "", "int64": "i64", "float32": "f", "float16": "f16", "float64": "f64"}[a.dtype.name]
    def one(v):
        if a.dtype.kind == 'f':
            s = np.format_float_positional(v, unique=True, trim='-')
            if s in ("nan", "inf", "-inf"): return s + suf
            return s + suf
        return str(int(v)) + suf
    def rec(x):
        if x.ndim == 0: return one(x)
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return rec(a)
