"""Relay's literal text for numpy values: the expected values of golden tests that numpy computes."""
import numpy as np
SUF = {np.float32: 'f', np.float64: 'f64', np.float16: 'f16', np.int32: '', np.int64: 'i64', np.int8: 'i8',
       np.uint8: 'u8', np.int16: 'i16', np.uint32: 'u32', np.uint64: 'u64', np.uint16: 'u16', np.bool_: ''}
def num(v, dt):
    t = np.dtype(dt).type
    if t is np.bool_: return 'True' if v else 'False'
    if np.issubdtype(dt, np.floating):
        if np.isnan(v): return 'nan' + SUF[t]
        if np.isinf(v): return ('-' if v < 0 else '') + 'inf' + SUF[t]
        v = t(v)
        e = int(np.floor(np.log10(abs(v)))) if v != 0 else 0
        if -4 <= e <= 15:
            s = np.format_float_positional(v, unique=True, trim='-')
        else:
            m, x = np.format_float_scientific(v, unique=True, trim='-').split('e')
            s = m + 'e' + str(int(x))
        return s + SUF[t]
    return str(int(v)) + SUF[t]
def rly(a):
    a = np.asarray(a)
    if a.ndim == 0: return num(a[()], a.dtype)
    return '[' + ', '.join(rly(x) for x in a) + ']'
