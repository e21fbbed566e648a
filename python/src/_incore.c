/*
 * _incore.c - the C extension of the incore Python package, written against
 * the CPython limited API of 3.9 (one abi3 wheel for every CPython >= 3.9).
 *
 * Buffers: the limited API names PyObject_GetBuffer, PyBuffer_Release and
 * Py_buffer only from 3.11 on, but the functions are exported by every
 * CPython 3 and the struct has kept the PEP 3118 layout since 3.3; 3.11 put
 * that same layout into the stable ABI.  So for 3.9 and 3.10 the three are
 * declared here as 3.11 declares them, and every input is taken with
 * PyBUF_SIMPLE: any C-contiguous exporter, without a copy, and the
 * exporter's BufferError (or a TypeError) for a non-contiguous one.
 *
 * The GIL is released around the library call for inputs of GIL_MIN bytes
 * and more.  Hash and HMAC objects change as they are fed, so each has a
 * lock, taken as hashlib takes its own (without the GIL when it has to
 * wait); the AEAD and XTS objects hold an expanded key that every
 * operation takes const, so threads share them without a lock.
 */
#ifndef Py_LIMITED_API
#define Py_LIMITED_API 0x03090000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incore/incore.h"
#include "tools.h"

#if Py_LIMITED_API + 0 < 0x030b0000
typedef struct {
    void *buf;
    PyObject *obj;
    Py_ssize_t len;
    Py_ssize_t itemsize;
    int readonly;
    int ndim;
    char *format;
    Py_ssize_t *shape;
    Py_ssize_t *strides;
    Py_ssize_t *suboffsets;
    void *internal;
} Py_buffer;
PyAPI_FUNC(int) PyObject_GetBuffer(PyObject *obj, Py_buffer *view, int flags);
PyAPI_FUNC(void) PyBuffer_Release(Py_buffer *view);
#define PyBUF_SIMPLE 0
#define PyBUF_WRITABLE 0x0001
#endif

/* Inputs from this many bytes on are processed without the GIL. */
#define GIL_MIN 4096

/* Run the statement stmt (pure C work on held buffer views) without the
 * GIL when big, with it otherwise (releasing costs more than short work). */
#define NOGIL_IF(big, stmt)            \
    do {                               \
        if (big) {                     \
            Py_BEGIN_ALLOW_THREADS     \
            stmt;                      \
            Py_END_ALLOW_THREADS       \
        } else {                       \
            stmt;                      \
        }                              \
    } while (0)

static PyObject *InvalidTag;
static PyTypeObject *HashType, *HmacType, *AesGcmType, *ChachaType, *XchachaType, *XtsType;

/* ---- buffers ---------------------------------------------------------------- */

/* A contiguous view of o (writable when asked), or -1 with TypeError for a
 * str (which must be encoded first) or the exporter's error. */
static int get_buf(PyObject *o, Py_buffer *v, int writable, const char *what)
{
    if (PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s: strings must be encoded before use (a bytes-like object "
                     "is required, not 'str')", what);
        return -1;
    }
    if (PyObject_GetBuffer(o, v, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) != 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: a bytes-like object is required", what);
            PyObject *t = PyObject_Type(o), *n = t ? PyObject_GetAttrString(t, "__name__") : NULL;
            if (n && PyUnicode_Check(n))
                PyErr_Format(PyExc_TypeError, "%s: a bytes-like object is required, not '%U'", what, n);
            Py_XDECREF(n);
            Py_XDECREF(t);
        } else if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            /* NumPy refuses a non-contiguous array with ValueError: one
             * exception for every exporter that cannot give a flat view */
            PyObject *t, *val, *tb;
            PyErr_Fetch(&t, &val, &tb);
            PyErr_Format(PyExc_BufferError, "%s: %S", what, val ? val : Py_None);
            Py_XDECREF(t);
            Py_XDECREF(val);
            Py_XDECREF(tb);
        }
        return -1;
    }
    return 0;
}

/* The same for an optional argument: None (or absent, o NULL) is an empty
 * input; *have says whether a view is held. */
static int get_opt_buf(PyObject *o, Py_buffer *v, int *have, const char *what)
{
    *have = 0;
    v->buf = NULL;
    v->len = 0;
    if (o == NULL || o == Py_None)
        return 0;
    if (get_buf(o, v, 0, what) != 0)
        return -1;
    *have = 1;
    return 0;
}

static const uint8_t empty_input[1];
static const uint8_t *ptr(const Py_buffer *v) { return v->buf ? (const uint8_t *)v->buf : empty_input; }

/* An exception for a library status (not IC_OK). */
static PyObject *status_error(int st)
{
    PyObject *type = PyExc_ValueError;
    if (st == IC_ERR_AUTH)
        type = InvalidTag;
    else if (st == IC_ERR_TOOLONG)
        type = PyExc_OverflowError;
    else if (st == IC_ERR_SELFTEST || st == IC_ERR_UNAVAILABLE)
        type = PyExc_RuntimeError;
    PyErr_SetString(type, st == IC_ERR_AUTH ? "" : ic_status_str(st));
    return NULL;
}

static PyObject *reduce_refused(PyObject *self, PyObject *unused)
{
    PyObject *t = PyObject_Type(self), *n = t ? PyObject_GetAttrString(t, "__qualname__") : NULL;
    if (n)
        PyErr_Format(PyExc_TypeError, "cannot pickle 'incore.%U' object: it holds key or hash state",
                     n);
    Py_XDECREF(n);
    Py_XDECREF(t);
    return NULL;
}

static PyObject *no_new(PyTypeObject *t, PyObject *a, PyObject *k)
{
    PyErr_SetString(PyExc_TypeError, "cannot create these objects directly: use the constructor "
                    "functions (incore.new, incore.sha256, incore.hmac_new, ...)");
    return NULL;
}

/* Dealloc of a heap type: free the object, then drop the type's reference. */
static void free_object(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    f(self);
    Py_DECREF(tp);
}

static PyObject *hex_of(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    char buf[2 * IC_HASH_MAX_DIGEST_SIZE];
    for (size_t i = 0; i < n; i++) {
        buf[2 * i] = digits[p[i] >> 4];
        buf[2 * i + 1] = digits[p[i] & 15];
    }
    return PyUnicode_FromStringAndSize(buf, (Py_ssize_t)(2 * n));
}

/* ---- hashes and HMAC --------------------------------------------------------- */

/* hashlib's names, in ic_hash_alg order */
static const char *const hash_names[IC_HASH_COUNT] = {"sha1", "sha224", "sha256", "sha384", "sha512",
                                                     "sha512_224", "sha512_256"};

static int parse_alg(PyObject *name, ic_hash_alg *alg)
{
    if (!PyUnicode_Check(name)) {
        PyErr_SetString(PyExc_TypeError, "the hash name must be a str");
        return -1;
    }
    /* PyUnicode_AsUTF8AndSize is in the limited API from 3.10 only */
    PyObject *b = PyUnicode_AsUTF8String(name);
    if (b == NULL)
        return -1;
    const char *s = PyBytes_AsString(b);
    int st = s && (size_t)PyBytes_Size(b) == strlen(s) ? ic_hash_from_name(alg, s) : IC_ERR_UNKNOWN;
    Py_DECREF(b);
    if (st != IC_OK) {
        PyErr_Format(PyExc_ValueError, "unsupported hash type %R", name);
        return -1;
    }
    return 0;
}

/* The state is inside the object (the hash contexts need no more than
 * the allocator's alignment), wiped when it is freed.  The lock is made on
 * the first update that runs without the GIL: until then every call on the
 * object runs whole under the GIL, which orders them (hashlib's scheme). */
typedef struct {
    PyObject_HEAD
    PyThread_type_lock lock;   /* NULL until needed */
    ic_hash_alg alg;
    int hmac;
    size_t size;               /* bytes of st in use */
    union {
        ic_hash_ctx h;
        ic_hmac_ctx m;
    } st;
} HashObject;

/* Take self's lock, if it has one: at once when free, else waiting
 * without the GIL. */
static void lock_take(HashObject *self)
{
    if (self->lock && !PyThread_acquire_lock(self->lock, 0)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, 1);
        Py_END_ALLOW_THREADS
    }
}

static void lock_give(HashObject *self)
{
    if (self->lock)
        PyThread_release_lock(self->lock);
}

static HashObject *hash_alloc(PyTypeObject *type, ic_hash_alg alg, int hmac)
{
    HashObject *self = PyObject_New(HashObject, type);
    if (self == NULL)
        return NULL;
    self->alg = alg;
    self->hmac = hmac;
    self->lock = NULL;
    self->size = hmac ? sizeof self->st.m : sizeof self->st.h;
    return self;
}

static void hash_dealloc(PyObject *o)
{
    HashObject *self = (HashObject *)o;
    ic_wipe(&self->st, sizeof self->st);
    if (self->lock)
        PyThread_free_lock(self->lock);
    free_object(o);
}

/* Feed v into self; the GIL released for a large input. */
static int hash_feed(HashObject *self, const Py_buffer *v)
{
    int st;
    if (v->len >= GIL_MIN) {
        if (self->lock == NULL && (self->lock = PyThread_allocate_lock()) == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(self->lock, 1);
        st = self->hmac ? ic_hmac_update(&self->st.m, ptr(v), (size_t)v->len)
                        : ic_hash_update(&self->st.h, ptr(v), (size_t)v->len);
        PyThread_release_lock(self->lock);
        Py_END_ALLOW_THREADS
    } else {
        lock_take(self);
        st = self->hmac ? ic_hmac_update(&self->st.m, ptr(v), (size_t)v->len)
                        : ic_hash_update(&self->st.h, ptr(v), (size_t)v->len);
        lock_give(self);
    }
    if (st != IC_OK) {
        status_error(st);
        return -1;
    }
    return 0;
}

static PyObject *hash_update(PyObject *o, PyObject *data)
{
    HashObject *self = (HashObject *)o;
    Py_buffer v;
    if (get_buf(data, &v, 0, "update") != 0)
        return NULL;
    int r = hash_feed(self, &v);
    PyBuffer_Release(&v);
    if (r != 0)
        return NULL;
    Py_RETURN_NONE;
}

/* The digest so far into out; the object stays usable (a copy is ended). */
static int hash_final_copy(HashObject *self, uint8_t *out, size_t *n)
{
    union {
        ic_hash_ctx h;
        ic_hmac_ctx m;
    } tmp;
    lock_take(self);
    memcpy(&tmp, &self->st, self->size);
    lock_give(self);
    *n = ic_hash_digest_size(self->alg);
    /* final wipes the copy it ends */
    int st = self->hmac ? ic_hmac_final(&tmp.m, out, *n) : ic_hash_final(&tmp.h, out, *n);
    if (st != IC_OK) {
        ic_wipe(&tmp, sizeof tmp);
        status_error(st);
        return -1;
    }
    return 0;
}

static PyObject *hash_digest(PyObject *o, PyObject *unused)
{
    uint8_t out[IC_HASH_MAX_DIGEST_SIZE];
    size_t n;
    if (hash_final_copy((HashObject *)o, out, &n) != 0)
        return NULL;
    return PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n);
}

static PyObject *hash_hexdigest(PyObject *o, PyObject *unused)
{
    uint8_t out[IC_HASH_MAX_DIGEST_SIZE];
    size_t n;
    if (hash_final_copy((HashObject *)o, out, &n) != 0)
        return NULL;
    return hex_of(out, n);
}

static PyObject *hash_copy(PyObject *o, PyObject *unused)
{
    HashObject *self = (HashObject *)o;
    HashObject *c = hash_alloc(Py_TYPE(o), self->alg, self->hmac);
    if (c == NULL)
        return NULL;
    lock_take(self);
    memcpy(&c->st, &self->st, self->size);
    lock_give(self);
    return (PyObject *)c;
}

static PyObject *hash_get_name(PyObject *o, void *unused)
{
    HashObject *self = (HashObject *)o;
    if (self->hmac)
        return PyUnicode_FromFormat("hmac-%s", hash_names[self->alg]);
    return PyUnicode_FromString(hash_names[self->alg]);
}

static PyObject *hash_get_digest_size(PyObject *o, void *unused)
{
    return PyLong_FromSize_t(ic_hash_digest_size(((HashObject *)o)->alg));
}

static PyObject *hash_get_block_size(PyObject *o, void *unused)
{
    return PyLong_FromSize_t(ic_hash_block_size(((HashObject *)o)->alg));
}

static PyObject *hash_repr(PyObject *o)
{
    HashObject *self = (HashObject *)o;
    return PyUnicode_FromFormat("<%s %s object>", hash_names[self->alg], self->hmac ? "HMAC" : "HASH");
}

static PyMethodDef hash_methods[] = {
    {"update", hash_update, METH_O, "Feed data (any bytes-like object) into the state."},
    {"digest", hash_digest, METH_NOARGS, "The digest of the data so far, as bytes."},
    {"hexdigest", hash_hexdigest, METH_NOARGS, "The digest of the data so far, as hex."},
    {"copy", hash_copy, METH_NOARGS, "An independent copy of the state."},
    {"__reduce__", reduce_refused, METH_NOARGS, "Pickling is refused."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef hash_getset[] = {
    {"name", hash_get_name, NULL, "hashlib's name of the algorithm", NULL},
    {"digest_size", hash_get_digest_size, NULL, "bytes in a digest", NULL},
    {"block_size", hash_get_block_size, NULL, "bytes in a block of the hash", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot hash_slots[] = {
    {Py_tp_dealloc, hash_dealloc}, {Py_tp_methods, hash_methods}, {Py_tp_getset, hash_getset},
    {Py_tp_new, no_new},           {Py_tp_repr, hash_repr},
    {Py_tp_doc, "A hash state with hashlib's interface (incore.new, incore.sha256, ...)."},
    {0, NULL}};
static PyType_Spec hash_spec = {"incore.HASH", sizeof(HashObject), 0, Py_TPFLAGS_DEFAULT, hash_slots};

static PyType_Slot hmac_slots[] = {
    {Py_tp_dealloc, hash_dealloc}, {Py_tp_methods, hash_methods}, {Py_tp_getset, hash_getset},
    {Py_tp_new, no_new},           {Py_tp_repr, hash_repr},
    {Py_tp_doc, "An HMAC state with hmac's interface (incore.hmac_new)."},
    {0, NULL}};
static PyType_Spec hmac_spec = {"incore.HMAC", sizeof(HashObject), 0, Py_TPFLAGS_DEFAULT, hmac_slots};

/* A hash object for alg (kv NULL), or an HMAC object under the key kv,
 * fed with data (NULL: none; what names it in errors). */
static PyObject *state_make(ic_hash_alg alg, const Py_buffer *kv, PyObject *data, const char *what)
{
    Py_buffer v;
    int have;
    if (get_opt_buf(data, &v, &have, what) != 0)
        return NULL;
    HashObject *self = hash_alloc(kv ? HmacType : HashType, alg, kv != NULL);
    int st = self == NULL ? IC_OK
             : kv ? ic_hmac_init(&self->st.m, alg, ptr(kv), (size_t)kv->len)
                  : ic_hash_init(&self->st.h, alg);
    if (self && st != IC_OK) {
        Py_CLEAR(self);
        status_error(st);
    }
    if (self && have && hash_feed(self, &v) != 0)
        Py_CLEAR(self);
    if (have)
        PyBuffer_Release(&v);
    return (PyObject *)self;
}

static PyObject *hash_make(ic_hash_alg alg, PyObject *data)
{
    return state_make(alg, NULL, data, "data");
}

/* new(name, data=b"", *, usedforsecurity=True) */
static PyObject *mod_new(PyObject *m, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"name", "data", "usedforsecurity", NULL};
    PyObject *name, *data = NULL;
    int ufs = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O$p:new", kwlist, &name, &data, &ufs))
        return NULL;
    ic_hash_alg alg;
    if (parse_alg(name, &alg) != 0)
        return NULL;
    return hash_make(alg, data);
}

#define HASH_CTOR(fn, ALG)                                                                        \
    static PyObject *mod_##fn(PyObject *m, PyObject *args, PyObject *kw)                          \
    {                                                                                             \
        static char *kwlist[] = {"data", "usedforsecurity", NULL};                                \
        PyObject *data = NULL;                                                                    \
        int ufs = 1;                                                                              \
        if (kw == NULL && PyTuple_Size(args) == 1)   /* the common call, parsed quickly */        \
            data = PyTuple_GetItem(args, 0);                                                      \
        else if (!PyArg_ParseTupleAndKeywords(args, kw, "|O$p:" #fn, kwlist, &data, &ufs))        \
            return NULL;                                                                          \
        return hash_make(ALG, data);                                                              \
    }
HASH_CTOR(sha1, IC_HASH_SHA1)
HASH_CTOR(sha224, IC_HASH_SHA224)
HASH_CTOR(sha256, IC_HASH_SHA256)
HASH_CTOR(sha384, IC_HASH_SHA384)
HASH_CTOR(sha512, IC_HASH_SHA512)
HASH_CTOR(sha512_224, IC_HASH_SHA512_224)
HASH_CTOR(sha512_256, IC_HASH_SHA512_256)

/* _hmac(name, key, msg) */
static PyObject *mod_hmac(PyObject *m, PyObject *args)
{
    PyObject *name, *key, *msg;
    if (!PyArg_ParseTuple(args, "OOO:_hmac", &name, &key, &msg))
        return NULL;
    ic_hash_alg alg;
    if (parse_alg(name, &alg) != 0)
        return NULL;
    Py_buffer kv;
    if (get_buf(key, &kv, 0, "key") != 0)
        return NULL;
    PyObject *r = state_make(alg, &kv, msg, "msg");
    PyBuffer_Release(&kv);
    return r;
}

/* _hkdf(name, ikm, length, salt, info) */
static PyObject *mod_hkdf(PyObject *m, PyObject *args)
{
    PyObject *name, *ikm, *salt, *info;
    Py_ssize_t length;
    if (!PyArg_ParseTuple(args, "OOnOO:hkdf", &name, &ikm, &length, &salt, &info))
        return NULL;
    ic_hash_alg alg;
    if (parse_alg(name, &alg) != 0)
        return NULL;
    size_t max = 255 * ic_hash_digest_size(alg);
    if (length < 1 || (size_t)length > max) {
        PyErr_Format(PyExc_ValueError, "hkdf: length must be 1 to %zu bytes for %s, not %zd", max,
                     hash_names[alg], length);
        return NULL;
    }
    Py_buffer iv, sv, nv;
    int hs, hn;
    if (get_buf(ikm, &iv, 0, "ikm") != 0)
        return NULL;
    if (get_opt_buf(salt, &sv, &hs, "salt") != 0) {
        PyBuffer_Release(&iv);
        return NULL;
    }
    if (get_opt_buf(info, &nv, &hn, "info") != 0) {
        PyBuffer_Release(&iv);
        if (hs)
            PyBuffer_Release(&sv);
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, length);
    if (out) {
        int st = ic_hkdf(alg, (uint8_t *)PyBytes_AsString(out), (size_t)length, ptr(&nv), (size_t)nv.len,
                         hs ? ptr(&sv) : NULL, (size_t)sv.len, ptr(&iv), (size_t)iv.len);
        if (st != IC_OK) {
            Py_CLEAR(out);
            status_error(st);
        }
    }
    PyBuffer_Release(&iv);
    if (hs)
        PyBuffer_Release(&sv);
    if (hn)
        PyBuffer_Release(&nv);
    return out;
}

/* compare_digest(a, b): bytes-like objects, or two ASCII strs (as hmac's) */
static PyObject *mod_compare_digest(PyObject *m, PyObject *args)
{
    PyObject *a, *b, *ea = NULL, *eb = NULL;
    if (!PyArg_ParseTuple(args, "OO:compare_digest", &a, &b))
        return NULL;
    if (PyUnicode_Check(a) && PyUnicode_Check(b)) {
        ea = PyUnicode_AsASCIIString(a);
        eb = ea ? PyUnicode_AsASCIIString(b) : NULL;
        if (eb == NULL) {
            Py_XDECREF(ea);
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "comparing strings with non-ASCII characters is not supported");
            return NULL;
        }
        a = ea, b = eb;
    } else if (PyUnicode_Check(a) || PyUnicode_Check(b)) {
        PyErr_SetString(PyExc_TypeError, "unsupported operand types: a str and a bytes-like object");
        return NULL;
    }
    Py_buffer va, vb;
    PyObject *r = NULL;
    if (get_buf(a, &va, 0, "compare_digest") == 0) {
        if (get_buf(b, &vb, 0, "compare_digest") == 0) {
            /* the length is not secret (as in hmac.compare_digest) */
            int eq = va.len == vb.len && ic_ct_equal(ptr(&va), ptr(&vb), (size_t)va.len);
            r = PyBool_FromLong(eq);
            PyBuffer_Release(&vb);
        }
        PyBuffer_Release(&va);
    }
    Py_XDECREF(ea);
    Py_XDECREF(eb);
    return r;
}

/* ---- CRCs -------------------------------------------------------------------- */

typedef uint32_t (*crc_fn)(uint32_t, const uint8_t *, size_t);

static PyObject *crc_call(PyObject *args, PyObject *kw, crc_fn f, const char *fmt)
{
    static char *kwlist[] = {"data", "value", NULL};
    PyObject *data, *value = NULL;
    Py_ssize_t nargs = kw == NULL ? PyTuple_Size(args) : -1;
    if (nargs == 1 || nargs == 2) {   /* the common calls, parsed quickly */
        data = PyTuple_GetItem(args, 0);
        value = nargs == 2 ? PyTuple_GetItem(args, 1) : NULL;
    } else if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &data, &value)) {
        return NULL;
    }
    uint32_t crc = 0;
    if (value) {
        /* any integer, as zlib takes it (__index__: NumPy's integers too),
         * taken modulo 2^32 */
        PyObject *iv = PyNumber_Index(value);
        if (iv == NULL)
            return NULL;
        crc = (uint32_t)PyLong_AsUnsignedLongMask(iv);
        Py_DECREF(iv);
        if (crc == (uint32_t)-1 && PyErr_Occurred())
            return NULL;
    }
    Py_buffer v;
    if (get_buf(data, &v, 0, "data") != 0)
        return NULL;
    NOGIL_IF(v.len >= GIL_MIN, crc = f(crc, ptr(&v), (size_t)v.len));
    PyBuffer_Release(&v);
    return PyLong_FromUnsignedLong(crc);
}

static PyObject *mod_crc32(PyObject *m, PyObject *args, PyObject *kw)
{
    return crc_call(args, kw, ic_crc32, "O|O:crc32");
}

static PyObject *mod_crc32c(PyObject *m, PyObject *args, PyObject *kw)
{
    return crc_call(args, kw, ic_crc32c, "O|O:crc32c");
}

typedef uint32_t (*combine_fn)(uint32_t, uint32_t, uint64_t);

/* A CRC argument: an int of 0 .. 2**32 - 1 (negative: OverflowError,
 * too large: ValueError); read as unsigned long long, whose error value
 * no 32-bit CRC has, so that 0xffffffff is a CRC on every word size. */
static int crc_arg(PyObject *o, uint32_t *v)
{
    unsigned long long x = PyLong_AsUnsignedLongLong(o);
    if (x == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (x > 0xffffffffULL) {
        PyErr_SetString(PyExc_ValueError, "a CRC value is below 2**32");
        return -1;
    }
    *v = (uint32_t)x;
    return 0;
}

static PyObject *combine_call(PyObject *args, combine_fn f, const char *fmt)
{
    PyObject *o1, *o2, *ol;
    uint32_t c1, c2;
    if (!PyArg_ParseTuple(args, fmt, &o1, &o2, &ol) || crc_arg(o1, &c1) != 0 || crc_arg(o2, &c2) != 0)
        return NULL;
    unsigned long long len2 = PyLong_AsUnsignedLongLong(ol);
    if (len2 == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    return PyLong_FromUnsignedLong(f(c1, c2, (uint64_t)len2));
}

static PyObject *mod_crc32_combine(PyObject *m, PyObject *args)
{
    return combine_call(args, ic_crc32_combine, "OOO:crc32_combine");
}

static PyObject *mod_crc32c_combine(PyObject *m, PyObject *args)
{
    return combine_call(args, ic_crc32c_combine, "OOO:crc32c_combine");
}

/* ---- AEADs and XTS ----------------------------------------------------------- */

enum { K_GCM, K_CHACHA, K_XCHACHA, K_XTS };

typedef struct {
    PyObject_HEAD
    int kind;
    size_t size;   /* bytes at k */
    union {
        ic_aes_gcm_key gcm;
        ic_chacha20_poly1305_key chacha;
        ic_aes_xts_key xts;
    } *k;          /* ic_alloc'd (64-byte aligned), expanded once, wiped when freed */
} KeyObject;

static void key_dealloc(PyObject *o)
{
    KeyObject *self = (KeyObject *)o;
    if (self->k) {
        if (self->kind == K_GCM)
            ic_aes_gcm_key_wipe(&self->k->gcm);
        else if (self->kind == K_XTS)
            ic_aes_xts_key_wipe(&self->k->xts);
        else
            ic_chacha20_poly1305_key_wipe(&self->k->chacha);
        ic_free(self->k, self->size);
    }
    free_object(o);
}

static PyObject *key_new(PyTypeObject *type, PyObject *args, PyObject *kw, int kind)
{
    static char *kwlist[] = {"key", NULL};
    PyObject *key;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O", kwlist, &key))
        return NULL;
    Py_buffer v;
    if (get_buf(key, &v, 0, "key") != 0)
        return NULL;
    size_t n = (size_t)v.len;
    const char *bad = NULL;
    if (kind == K_GCM && n != 16 && n != 24 && n != 32)
        bad = "AESGCM key must be 128, 192, or 256 bits.";
    else if ((kind == K_CHACHA || kind == K_XCHACHA) && n != 32)
        bad = kind == K_CHACHA ? "ChaCha20Poly1305 key must be 32 bytes."
                               : "XChaCha20Poly1305 key must be 32 bytes.";
    else if (kind == K_XTS && n != 32 && n != 64)
        bad = "AESXTS key must be 32 or 64 bytes (two AES-128 or AES-256 keys).";
    if (bad) {
        PyBuffer_Release(&v);
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
    KeyObject *self = (KeyObject *)alloc(type, 0);
    if (self == NULL) {
        PyBuffer_Release(&v);
        return NULL;
    }
    self->kind = kind;
    self->size = kind == K_GCM ? sizeof self->k->gcm : kind == K_XTS ? sizeof self->k->xts
                                                                       : sizeof self->k->chacha;
    self->k = ic_alloc(self->size);
    int st = IC_OK;
    if (self->k == NULL) {
        PyBuffer_Release(&v);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (kind == K_GCM)
        st = ic_aes_gcm_key_init(&self->k->gcm, ptr(&v), n);
    else if (kind == K_XTS)
        st = ic_aes_xts_key_init(&self->k->xts, ptr(&v), n);
    else
        st = ic_chacha20_poly1305_key_init(&self->k->chacha, ptr(&v));
    PyBuffer_Release(&v);
    if (st != IC_OK) {
        Py_DECREF(self);
        if (st == IC_ERR_WEAKKEY) {
            PyErr_SetString(PyExc_ValueError, "AESXTS: the two halves of the key are equal");
            return NULL;
        }
        return status_error(st);
    }
    return (PyObject *)self;
}

static PyObject *gcm_new(PyTypeObject *t, PyObject *a, PyObject *k) { return key_new(t, a, k, K_GCM); }
static PyObject *chacha_new(PyTypeObject *t, PyObject *a, PyObject *k) { return key_new(t, a, k, K_CHACHA); }
static PyObject *xchacha_new(PyTypeObject *t, PyObject *a, PyObject *k) { return key_new(t, a, k, K_XCHACHA); }
static PyObject *xts_new(PyTypeObject *t, PyObject *a, PyObject *k) { return key_new(t, a, k, K_XTS); }

/* Seal or open len bytes of in into out (tag after the ciphertext). */
static int aead_run(const KeyObject *self, int open, uint8_t *out, const uint8_t *in, size_t len,
                    const uint8_t *aad, size_t aadlen, const uint8_t *nonce, size_t noncelen)
{
    const uint8_t *tag_in = in + len;   /* open: len is the ciphertext without its tag */
    uint8_t *tag_out = out + len;
    switch (self->kind) {
    case K_GCM:
        return open ? ic_aes_gcm_key_open(&self->k->gcm, out, tag_in, 16, in, len, aad, aadlen, nonce, noncelen)
                    : ic_aes_gcm_key_seal(&self->k->gcm, out, tag_out, 16, in, len, aad, aadlen, nonce, noncelen);
    case K_CHACHA:
        return open ? ic_chacha20_poly1305_key_open(&self->k->chacha, out, tag_in, in, len, aad, aadlen, nonce)
                    : ic_chacha20_poly1305_key_seal(&self->k->chacha, out, tag_out, in, len, aad, aadlen, nonce);
    default:
        return open ? ic_xchacha20_poly1305_key_open(&self->k->chacha, out, tag_in, in, len, aad, aadlen, nonce)
                    : ic_xchacha20_poly1305_key_seal(&self->k->chacha, out, tag_out, in, len, aad, aadlen, nonce);
    }
}

/* encrypt/decrypt(nonce, data, associated_data) and the _into forms with
 * a writable buf last: the three inputs and the checks cryptography makes */
static PyObject *aead_call(PyObject *o, PyObject *args, int open, int into)
{
    KeyObject *self = (KeyObject *)o;
    PyObject *nonce, *data, *aad, *buf = NULL;
    if (!into && PyTuple_Size(args) == 3) {   /* parsed quickly: every call pays this */
        nonce = PyTuple_GetItem(args, 0);
        data = PyTuple_GetItem(args, 1);
        aad = PyTuple_GetItem(args, 2);
    } else if (into ? !PyArg_ParseTuple(args, open ? "OOOO:decrypt_into" : "OOOO:encrypt_into", &nonce, &data,
                                        &aad, &buf)
                    : !PyArg_ParseTuple(args, open ? "OOO:decrypt" : "OOO:encrypt", &nonce, &data, &aad)) {
        return NULL;
    }
    Py_buffer nv, dv, av, ov;
    int ha = 0, ho = 0;
    PyObject *ret = NULL;
    if (get_buf(nonce, &nv, 0, "nonce") != 0)
        return NULL;
    if (get_buf(data, &dv, 0, "data") != 0) {
        PyBuffer_Release(&nv);
        return NULL;
    }
    if (get_opt_buf(aad, &av, &ha, "associated_data") != 0)
        goto done;
    size_t nl = (size_t)nv.len;
    if (self->kind == K_GCM && (nl < 8 || nl > 128)) {
        PyErr_SetString(PyExc_ValueError, "Nonce must be between 8 and 128 bytes");
        goto done;
    }
    if (self->kind == K_CHACHA && nl != 12) {
        PyErr_SetString(PyExc_ValueError, "Nonce must be 12 bytes");
        goto done;
    }
    if (self->kind == K_XCHACHA && nl != 24) {
        PyErr_SetString(PyExc_ValueError, "Nonce must be 24 bytes");
        goto done;
    }
    size_t in_len = (size_t)dv.len;
    if (open && in_len < 16) {
        PyErr_SetString(InvalidTag, "");
        goto done;
    }
    size_t len = open ? in_len - 16 : in_len;   /* message bytes */
    size_t out_len = open ? len : len + 16;
    uint8_t *out;
    if (into) {
        if (get_buf(buf, &ov, 1, "buf") != 0)
            goto done;
        ho = 1;
        if ((size_t)ov.len != out_len) {
            PyErr_Format(PyExc_ValueError, "buffer must be %zu bytes, not %zd", out_len, ov.len);
            goto done;
        }
        out = ov.buf ? (uint8_t *)ov.buf : (uint8_t *)empty_input;
    } else {
        ret = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)out_len);
        if (ret == NULL)
            goto done;
        out = (uint8_t *)PyBytes_AsString(ret);
    }
    int st;
    NOGIL_IF(in_len >= GIL_MIN,
             st = aead_run(self, open, out, ptr(&dv), len, ptr(&av), (size_t)av.len, ptr(&nv), nl));
    if (st != IC_OK) {
        Py_CLEAR(ret);
        if (st == IC_ERR_OVERLAP)
            PyErr_SetString(PyExc_ValueError, "buf overlaps an input");
        else
            status_error(st);
        goto done;
    }
    if (into)
        ret = PyLong_FromSize_t(out_len);
done:
    PyBuffer_Release(&nv);
    PyBuffer_Release(&dv);
    if (ha)
        PyBuffer_Release(&av);
    if (ho)
        PyBuffer_Release(&ov);
    return ret;
}

static PyObject *aead_encrypt(PyObject *o, PyObject *a) { return aead_call(o, a, 0, 0); }
static PyObject *aead_decrypt(PyObject *o, PyObject *a) { return aead_call(o, a, 1, 0); }
static PyObject *aead_encrypt_into(PyObject *o, PyObject *a) { return aead_call(o, a, 0, 1); }
static PyObject *aead_decrypt_into(PyObject *o, PyObject *a) { return aead_call(o, a, 1, 1); }

static PyObject *random_key(size_t n)
{
    PyObject *r = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (r == NULL)
        return NULL;
    int st = ic_random((uint8_t *)PyBytes_AsString(r), n);
    if (st != IC_OK) {
        Py_DECREF(r);
        return status_error(st);
    }
    return r;
}

/* generate_key(bit_length), positional or keyword: a random key of one
 * of the sizes in ok (bits, 0-terminated), whose message msg names them. */
static PyObject *gen_key(PyObject *args, PyObject *kw, const long *ok, const char *msg)
{
    static char *kwlist[] = {"bit_length", NULL};
    PyObject *bits;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:generate_key", kwlist, &bits))
        return NULL;
    if (!PyLong_Check(bits)) {
        PyErr_SetString(PyExc_TypeError, "bit_length must be an integer");
        return NULL;
    }
    long b = PyLong_AsLong(bits);
    if (b == -1 && PyErr_Occurred())
        return NULL;
    while (*ok != 0 && *ok != b)
        ok++;
    if (*ok == 0) {
        PyErr_SetString(PyExc_ValueError, msg);
        return NULL;
    }
    return random_key((size_t)b / 8);
}

static PyObject *gcm_generate_key(PyObject *cls, PyObject *args, PyObject *kw)
{
    static const long ok[] = { 128, 192, 256, 0 };
    return gen_key(args, kw, ok, "bit_length must be 128, 192, or 256");
}

static PyObject *chacha_generate_key(PyObject *cls, PyObject *unused) { return random_key(32); }

/* XTS: two independent halves (equal ones are refused, and would be weak) */
static PyObject *xts_generate_key(PyObject *cls, PyObject *args, PyObject *kw)
{
    static const long ok[] = { 256, 512, 0 };
    return gen_key(args, kw, ok, "bit_length must be 256 or 512");
}

#define AEAD_METHODS(genkey, genflags, gendoc)                                                              \
    {"encrypt", aead_encrypt, METH_VARARGS, "encrypt(nonce, data, associated_data) -> ciphertext || tag"}, \
    {"decrypt", aead_decrypt, METH_VARARGS,                                                                \
     "decrypt(nonce, data, associated_data) -> plaintext; InvalidTag when it does not authenticate"},     \
    {"encrypt_into", aead_encrypt_into, METH_VARARGS,                                                      \
     "encrypt_into(nonce, data, associated_data, buf) -> bytes written (len(data) + 16)"},                \
    {"decrypt_into", aead_decrypt_into, METH_VARARGS,                                                      \
     "decrypt_into(nonce, data, associated_data, buf) -> bytes written (len(data) - 16)"},                \
    {"generate_key", (PyCFunction)(void (*)(void))genkey, METH_CLASS | genflags, gendoc},                                               \
    {"__reduce__", reduce_refused, METH_NOARGS, "Pickling is refused."},                                   \
    {NULL, NULL, 0, NULL}

static PyMethodDef gcm_methods[] = {AEAD_METHODS(gcm_generate_key, METH_VARARGS | METH_KEYWORDS, "generate_key(bit_length) -> a new random key")};
static PyMethodDef chacha_methods[] = {AEAD_METHODS(chacha_generate_key, METH_NOARGS, "generate_key() -> a new random key")};

static PyObject *xts_call(PyObject *o, PyObject *args, int dec)
{
    KeyObject *self = (KeyObject *)o;
    PyObject *tweak, *data;
    if (!PyArg_ParseTuple(args, dec ? "OO:decrypt" : "OO:encrypt", &tweak, &data))
        return NULL;
    Py_buffer tv, dv;
    PyObject *ret = NULL;
    if (get_buf(tweak, &tv, 0, "tweak") != 0)
        return NULL;
    if (get_buf(data, &dv, 0, "data") != 0) {
        PyBuffer_Release(&tv);
        return NULL;
    }
    size_t len = (size_t)dv.len;
    if (tv.len != 16)
        PyErr_SetString(PyExc_ValueError, "tweak must be 16 bytes");
    else if (len < IC_AES_XTS_MIN_LEN)
        PyErr_SetString(PyExc_ValueError, "The XTS specification requires at least 16 bytes of data");
    else if (len > IC_AES_XTS_MAX_LEN)
        PyErr_SetString(PyExc_ValueError, "XTS data units are at most 2**24 bytes");
    else if ((ret = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len)) != NULL) {
        uint8_t *out = (uint8_t *)PyBytes_AsString(ret);
        uint8_t tw[16];
        memcpy(tw, tv.buf, 16);
        int st;
        NOGIL_IF(len >= GIL_MIN, st = dec ? ic_aes_xts_decrypt(&self->k->xts, out, ptr(&dv), len, tw)
                                          : ic_aes_xts_encrypt(&self->k->xts, out, ptr(&dv), len, tw));
        if (st != IC_OK) {
            Py_CLEAR(ret);
            status_error(st);
        }
    }
    PyBuffer_Release(&tv);
    PyBuffer_Release(&dv);
    return ret;
}

static PyObject *xts_encrypt(PyObject *o, PyObject *a) { return xts_call(o, a, 0); }
static PyObject *xts_decrypt(PyObject *o, PyObject *a) { return xts_call(o, a, 1); }

static PyMethodDef xts_methods[] = {
    {"encrypt", xts_encrypt, METH_VARARGS, "encrypt(tweak, data) -> ciphertext of one data unit"},
    {"decrypt", xts_decrypt, METH_VARARGS, "decrypt(tweak, data) -> plaintext of one data unit"},
    {"generate_key", (PyCFunction)(void (*)(void))xts_generate_key, METH_CLASS | METH_VARARGS | METH_KEYWORDS, "generate_key(bit_length) -> 256 or 512 random bits"},
    {"__reduce__", reduce_refused, METH_NOARGS, "Pickling is refused."},
    {NULL, NULL, 0, NULL}};

#define KEY_SPEC(var, name, newf, methods, doc)                                                   \
    static PyType_Slot var##_slots[] = {{Py_tp_dealloc, key_dealloc}, {Py_tp_methods, methods},  \
                                        {Py_tp_new, newf},            {Py_tp_doc, doc},          \
                                        {0, NULL}};                                               \
    static PyType_Spec var##_spec = {name, sizeof(KeyObject), 0, Py_TPFLAGS_DEFAULT, var##_slots};
KEY_SPEC(gcm, "incore.AESGCM", gcm_new, gcm_methods,
         "AESGCM(key): AES-GCM with a 16, 24 or 32-byte key, expanded once (pyca/cryptography's interface).")
KEY_SPEC(chacha, "incore.ChaCha20Poly1305", chacha_new, chacha_methods,
         "ChaCha20Poly1305(key): RFC 8439 with a 32-byte key and 12-byte nonces.")
KEY_SPEC(xchacha, "incore.XChaCha20Poly1305", xchacha_new, chacha_methods,
         "XChaCha20Poly1305(key): ChaCha20-Poly1305 with 24-byte nonces.")
KEY_SPEC(xts, "incore.AESXTS", xts_new, xts_methods,
         "AESXTS(key): AES-XTS (IEEE 1619) with a 32 or 64-byte key (two AES keys).")

/* ---- random, info, rngtest ------------------------------------------------- */

static PyObject *mod_random_bytes(PyObject *m, PyObject *arg)
{
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "random_bytes: negative count");
        return NULL;
    }
    PyObject *r = PyBytes_FromStringAndSize(NULL, n);
    if (r == NULL)
        return NULL;
    uint8_t *p = (uint8_t *)PyBytes_AsString(r);
    int st;
    NOGIL_IF(n >= GIL_MIN, st = ic_random(p, (size_t)n));
    if (st != IC_OK) {
        Py_DECREF(r);
        return status_error(st);
    }
    return r;
}

/* What a writer into a FILE produced, as a str. */
typedef int (*writer_fn)(FILE *f, void *arg);

static PyObject *capture(writer_fn fn, void *arg, int *rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return PyErr_SetFromErrno(PyExc_OSError);
    *rc = fn(f, arg);
    if (fclose(f) != 0) {
        free(text);
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    PyObject *s = PyUnicode_DecodeUTF8(text ? text : "", (Py_ssize_t)len, "replace");
    free(text);
    return s;
}

static int info_writer(FILE *f, void *arg)
{
    incore_info_write(f);
    return 0;
}

static PyObject *mod_info(PyObject *m, PyObject *unused)
{
    int rc;
    return capture(info_writer, NULL, &rc);
}

static int rngtest_writer(FILE *f, void *arg)
{
    const Py_buffer *v = arg;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = incore_rngtest_json(f, ptr(v), (size_t)v->len);
    Py_END_ALLOW_THREADS
    return rc;
}

static PyObject *mod_rngtest_json(PyObject *m, PyObject *data)
{
    Py_buffer v;
    if (get_buf(data, &v, 0, "data") != 0)
        return NULL;
    if (v.len < 2500) {
        PyBuffer_Release(&v);
        PyErr_Format(PyExc_ValueError, "rngtest: %zd bytes; the tests need at least 2500 "
                     "(one 20,000-bit FIPS 140-2 block)", v.len);
        return NULL;
    }
    int rc = 0;
    PyObject *s = capture(rngtest_writer, &v, &rc);
    PyBuffer_Release(&v);
    if (s && rc == 2) {
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    return s;
}

/* ---- the module ------------------------------------------------------------- */

#define HASH_DEF(fn, doc) {#fn, (PyCFunction)(void (*)(void))mod_##fn, METH_VARARGS | METH_KEYWORDS, doc}
static PyMethodDef module_methods[] = {
    HASH_DEF(new, "new(name, data=b'', *, usedforsecurity=True): a hash object for a hashlib name"),
    HASH_DEF(sha1, "sha1(data=b'', *, usedforsecurity=True)"),
    HASH_DEF(sha224, "sha224(data=b'', *, usedforsecurity=True)"),
    HASH_DEF(sha256, "sha256(data=b'', *, usedforsecurity=True)"),
    HASH_DEF(sha384, "sha384(data=b'', *, usedforsecurity=True)"),
    HASH_DEF(sha512, "sha512(data=b'', *, usedforsecurity=True)"),
    HASH_DEF(sha512_224, "sha512_224(data=b'', *, usedforsecurity=True)"),
    HASH_DEF(sha512_256, "sha512_256(data=b'', *, usedforsecurity=True)"),
    HASH_DEF(crc32, "crc32(data, value=0): CRC-32 as zlib.crc32"),
    HASH_DEF(crc32c, "crc32c(data, value=0): CRC-32C (Castagnoli) as crc32c.crc32c"),
    {"crc32_combine", mod_crc32_combine, METH_VARARGS, "crc32_combine(crc1, crc2, len2): CRC-32 of A || B"},
    {"crc32c_combine", mod_crc32c_combine, METH_VARARGS, "crc32c_combine(crc1, crc2, len2): CRC-32C of A || B"},
    {"_hmac", mod_hmac, METH_VARARGS, "_hmac(name, key, msg): an HMAC object"},
    {"_hkdf", mod_hkdf, METH_VARARGS, "_hkdf(name, ikm, length, salt, info): RFC 5869 HKDF"},
    {"compare_digest", mod_compare_digest, METH_VARARGS, "compare_digest(a, b): a == b in constant time"},
    {"random_bytes", mod_random_bytes, METH_O, "random_bytes(n): n bytes of incore's CTR_DRBG"},
    {"_info", mod_info, METH_NOARGS, "the report of `incore info`"},
    {"_rngtest_json", mod_rngtest_json, METH_O, "the JSON of `incore rngtest --json` for data"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "incore._incore",
                                        "The C extension of the incore package.", -1, module_methods,
                                        NULL, NULL, NULL, NULL};

static int add_type(PyObject *m, PyTypeObject **slot, PyType_Spec *spec, const char *name)
{
    *slot = (PyTypeObject *)PyType_FromSpec(spec);
    if (*slot == NULL)
        return -1;
    Py_INCREF(*slot);
    if (PyModule_AddObject(m, name, (PyObject *)*slot) != 0) {
        Py_DECREF(*slot);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__incore(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    InvalidTag = PyErr_NewExceptionWithDoc("incore.InvalidTag",
                                           "The ciphertext, tag, nonce or associated data do not authenticate.",
                                           NULL, NULL);
    if (InvalidTag == NULL)
        goto fail;
    Py_INCREF(InvalidTag);
    if (PyModule_AddObject(m, "InvalidTag", InvalidTag) != 0)
        goto fail;
    if (add_type(m, &HashType, &hash_spec, "HASH") || add_type(m, &HmacType, &hmac_spec, "HMAC") ||
        add_type(m, &AesGcmType, &gcm_spec, "AESGCM") ||
        add_type(m, &ChachaType, &chacha_spec, "ChaCha20Poly1305") ||
        add_type(m, &XchachaType, &xchacha_spec, "XChaCha20Poly1305") ||
        add_type(m, &XtsType, &xts_spec, "AESXTS"))
        goto fail;
    if (PyModule_AddStringConstant(m, "__version__", ic_version()) != 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
