/*
 * der.c - the strict DER and PEM reader of der.h, for the key formats of
 * rsa_key.c.
 *
 * Strict because a key file is attacker data as often as not: X.690's BER
 * freedoms (indefinite lengths, lengths and INTEGERs with padding bytes)
 * let one key have many encodings, and lenient readers of them have
 * accepted forged signatures and keys more than once.  So each read names
 * the one tag it accepts, a length has exactly one encoding, and a
 * structure must end where its length says.
 *
 * Secrets: the bytes may be a private key.  Tags, lengths, OIDs, the
 * version and the PEM framing are structure and are declassified as they
 * are read (core/ct.h); the contents of an INTEGER are looked at only by
 * constant-time code whose verdict alone is declassified, and the base64
 * is decoded in constant time, the class of each character (data, line
 * break, padding, other) being all that becomes public.
 */
#include "bn/der.h"
#include "core/ct.h"
#include "core/internal.h"

#include <string.h>

/* ---- DER ---------------------------------------------------------------------- */

/* One byte of structure (a tag, a length byte): read and made public. */
static int take_byte(ic_der *d, uint8_t *b)
{
    if (d->n == 0)
        return 0;
    *b = d->p[0];
    ic_ct_declassify(b, 1);
    d->p++, d->n--;
    return 1;
}

/* The length octets (X.690 8.1.3 and 10.1): the short form below 128,
 * else 0x81..0x84 and that many bytes without a leading zero for a value
 * of 128 or more.  0x80 (indefinite) and longer forms are refused, and
 * the length must fit in what is left. */
static int read_len(ic_der *d, size_t *len)
{
    uint8_t b;
    if (!take_byte(d, &b))
        return IC_ERR_DECODE;
    if (b < 0x80) {
        *len = b;
    } else {
        size_t nb = b & 0x7f, v = 0;
        if (nb == 0 || nb > 4)
            return IC_ERR_DECODE;
        for (size_t i = 0; i < nb; i++) {
            if (!take_byte(d, &b) || (i == 0 && b == 0))
                return IC_ERR_DECODE;
            v = v << 8 | b;
        }
        if (v < 0x80)
            return IC_ERR_DECODE;
        *len = v;
    }
    return *len <= d->n ? IC_OK : IC_ERR_DECODE;
}

int ic_der_read(ic_der *d, uint8_t tag, ic_der *in)
{
    ic_der t = *d;
    uint8_t b;
    size_t len;
    if (!take_byte(&t, &b) || b != tag || read_len(&t, &len) != IC_OK)
        return IC_ERR_DECODE;
    in->p = t.p;
    in->n = len;
    d->p = t.p + len;
    d->n = t.n - len;
    return IC_OK;
}

int ic_der_next_is(const ic_der *d, uint8_t tag)
{
    ic_der t = *d;
    uint8_t b;
    return take_byte(&t, &b) && b == tag;
}

int ic_der_end(const ic_der *d)
{
    return d->n == 0 ? IC_OK : IC_ERR_DECODE;
}

/* All ones when b (a byte) is zero, else 0; no branch. */
static unsigned ct_zero(unsigned b)
{
    return 0u - (((b - 1) >> 8) & 1);
}

int ic_der_uint(ic_der *d, ic_der *v)
{
    if (ic_der_read(d, IC_DER_INTEGER, v) != IC_OK || v->n == 0)
        return IC_ERR_DECODE;
    /* negative (sign bit set), or 00 before a byte whose sign bit is
     * clear (X.690 8.3.2: not the fewest bytes); FF before a byte with it
     * set is negative already */
    unsigned b0 = v->p[0], b1 = v->n > 1 ? v->p[1] : 0x80;
    unsigned bad = (b0 >> 7) | (ct_zero(b0) & ((b1 >> 7) ^ 1) & 1);
    ic_ct_declassify(&bad, sizeof bad);
    return bad ? IC_ERR_DECODE : IC_OK;
}

int ic_der_small(ic_der *d, unsigned *v)
{
    ic_der c;
    if (ic_der_read(d, IC_DER_INTEGER, &c) != IC_OK || c.n != 1)
        return IC_ERR_DECODE;
    uint8_t b = c.p[0];
    ic_ct_declassify(&b, 1);                  /* a version: structure */
    if (b >= 0x80)
        return IC_ERR_DECODE;                 /* negative */
    *v = b;
    return IC_OK;
}

int ic_der_null(ic_der *d)
{
    ic_der c;
    return ic_der_read(d, IC_DER_NULL, &c) == IC_OK && c.n == 0 ? IC_OK : IC_ERR_DECODE;
}

/* X.690 8.19: subidentifiers in base 128, the high bit set on every byte
 * but the last of each, none starting with 0x80 (a padding byte). */
static int oid_ok(const uint8_t *p, size_t n)
{
    if (n == 0 || (p[n - 1] & 0x80) != 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] == 0x80 && (i == 0 || (p[i - 1] & 0x80) == 0))
            return 0;
    return 1;
}

int ic_der_oid(ic_der *d, ic_der *oid)
{
    if (ic_der_read(d, IC_DER_OID, oid) != IC_OK)
        return IC_ERR_DECODE;
    ic_ct_declassify(oid->p, oid->n);         /* an algorithm's name */
    return oid_ok(oid->p, oid->n) ? IC_OK : IC_ERR_DECODE;
}

int ic_der_bits(ic_der *d, ic_der *in)
{
    uint8_t unused;
    if (ic_der_read(d, IC_DER_BITSTRING, in) != IC_OK || !take_byte(in, &unused) || unused != 0)
        return IC_ERR_DECODE;
    return IC_OK;
}

/* ---- PEM framing (RFC 7468) --------------------------------------------------- */

/* p[i], made public: a byte of the framing. */
static uint8_t pub_byte(const uint8_t *p, size_t i)
{
    uint8_t b = p[i];
    ic_ct_declassify(&b, 1);
    return b;
}

/* 1 when the n bytes at p are s (framing, public). */
static int pub_match(const uint8_t *p, size_t n, const char *s)
{
    size_t len = strlen(s);
    if (n < len)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (pub_byte(p, i) != (uint8_t)s[i])
            return 0;
    return 1;
}

static int is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* A label character: printable ASCII but '-' (labels with hyphens are
 * not read), spaces only inside. */
static int label_char(uint8_t c)
{
    return c >= 0x20 && c <= 0x7e && c != '-';
}

/* The label at p (up to the first '-' of n bytes): its length, 0 when it
 * is empty, starts or ends with a space, or has a byte of another kind. */
static size_t label_len(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n && label_char(pub_byte(p, i)))
        i++;
    if (i == 0 || pub_byte(p, 0) == ' ' || pub_byte(p, i - 1) == ' ')
        return 0;
    return i;
}

/* The BEGIN line after leading whitespace: its label, and the offset of
 * the line after it (past LF or CRLF) in *body. */
static int begin_line(const uint8_t *pem, size_t n, const uint8_t **label, size_t *llen, size_t *body)
{
    size_t i = 0;
    while (i < n && is_space(pub_byte(pem, i)))
        i++;
    if (!pub_match(pem + i, n - i, "-----BEGIN "))
        return IC_ERR_DECODE;
    i += 11;
    *label = pem + i;
    *llen = label_len(pem + i, n - i);
    i += *llen;
    if (*llen == 0 || !pub_match(pem + i, n - i, "-----"))
        return IC_ERR_DECODE;
    i += 5;
    if (pub_match(pem + i, n - i, "\r\n"))
        i += 2;
    else if (pub_match(pem + i, n - i, "\n"))
        i += 1;
    else
        return IC_ERR_DECODE;
    *body = i;
    return IC_OK;
}

/* The END line, found from the end (so the body is never searched): only
 * whitespace after it, and it starts a line.  Its label, and its offset
 * in *at. */
static int end_line(const uint8_t *pem, size_t n, const uint8_t **label, size_t *llen, size_t *at)
{
    size_t e = n;
    while (e > 0 && is_space(pub_byte(pem, e - 1)))
        e--;
    if (e < 5 || !pub_match(pem + e - 5, 5, "-----"))
        return IC_ERR_DECODE;
    size_t s = e - 5;                         /* the label ends here */
    while (s > 0 && label_char(pub_byte(pem, s - 1)))
        s--;
    /* s is past the dashes that open the line: "-----END <label>" */
    if (s < 5 || !pub_match(pem + s - 5, 5, "-----") || !pub_match(pem + s, e - 5 - s, "END "))
        return IC_ERR_DECODE;
    *label = pem + s + 4;
    *llen = e - 5 - (s + 4);
    if (label_len(*label, *llen) != *llen || s - 5 == 0 || pub_byte(pem, s - 6) != '\n')
        return IC_ERR_DECODE;
    *at = s - 5;
    return IC_OK;
}

int ic_pem_block(const uint8_t *pem, size_t pemlen, const uint8_t **label, size_t *labellen,
                 const uint8_t **b64, size_t *b64len)
{
    const uint8_t *endlabel;
    size_t body, endlen, at;
    if (begin_line(pem, pemlen, label, labellen, &body) != IC_OK ||
        end_line(pem, pemlen, &endlabel, &endlen, &at) != IC_OK || at < body)
        return IC_ERR_DECODE;
    ic_ct_declassify(*label, *labellen);      /* the labels are framing: public */
    ic_ct_declassify(endlabel, endlen);
    if (endlen != *labellen || memcmp(endlabel, *label, endlen) != 0)
        return IC_ERR_DECODE;
    *b64 = pem + body;
    *b64len = at - body;
    return IC_OK;
}

int ic_pem_encrypted(const uint8_t *b64, size_t b64len)
{
    static const char hdr[] = "Proc-Type: 4,ENCRYPTED";
    int enc = b64len >= sizeof hdr - 1 && ic_ct_equal(b64, hdr, sizeof hdr - 1);
    ic_ct_declassify(&enc, sizeof enc);
    return enc;
}

/* ---- base64 (RFC 4648 4) in constant time -------------------------------------- */

/* All ones when lo <= c <= hi, else 0 (c, lo, hi below 256); no branch. */
static unsigned ct_range(unsigned c, unsigned lo, unsigned hi)
{
    return (((c - lo) | (hi - c)) >> (sizeof(unsigned) * 8 - 1)) - 1u;
}

enum { B64_DATA = 1, B64_BREAK = 2, B64_PAD = 4 };

/* The value of the base64 character c into *v (0 for other bytes), and
 * its class (B64_*, 0 for a byte that has no place in base64), which is
 * made public; the value is not. */
static unsigned b64_char(unsigned c, unsigned *v)
{
    unsigned up = ct_range(c, 'A', 'Z'), lo = ct_range(c, 'a', 'z'), dig = ct_range(c, '0', '9');
    unsigned plus = ct_range(c, '+', '+'), slash = ct_range(c, '/', '/');
    *v = (up & (c - 'A')) | (lo & (c - 'a' + 26)) | (dig & (c - '0' + 52)) | (plus & 62) | (slash & 63);
    unsigned cls = ((up | lo | dig | plus | slash) & B64_DATA) |
                   ((ct_range(c, '\n', '\n') | ct_range(c, '\r', '\r')) & B64_BREAK) |
                   (ct_range(c, '=', '=') & B64_PAD);
    ic_ct_declassify(&cls, sizeof cls);
    return cls;
}

/* The first pass: every byte a base64 character or a line break, '='
 * only at the end (one or two), and data plus padding a multiple of 4.
 * The number of data characters into *ndata. */
static int b64_shape(const uint8_t *in, size_t inlen, size_t *ndata)
{
    size_t data = 0, pad = 0;
    for (size_t i = 0; i < inlen; i++) {
        unsigned v, cls = b64_char(in[i], &v);
        if (cls == B64_DATA && pad == 0)
            data++;
        else if (cls == B64_PAD)
            pad++;
        else if (cls != B64_BREAK)
            return IC_ERR_DECODE;
    }
    if (pad > 2 || (data + pad) % 4 != 0)     /* so 2 or 3 characters before any '=' */
        return IC_ERR_DECODE;
    *ndata = data;
    return IC_OK;
}

int ic_base64_decode(uint8_t *out, size_t cap, size_t *outlen, const uint8_t *in, size_t inlen)
{
    size_t ndata = 0, got = 0, seen = 0;
    if (b64_shape(in, inlen, &ndata) != IC_OK)
        return IC_ERR_DECODE;
    if (ndata / 4 * 3 + ndata % 4 * 3 / 4 > cap)   /* the bytes it makes: 3 per group, 1 or 2 after */
        return IC_ERR_TOOLONG;
    uint32_t acc = 0;
    unsigned v;
    for (size_t i = 0; i < inlen && seen < ndata; i++) {
        if (b64_char(in[i], &v) != B64_DATA)
            continue;
        acc = acc << 6 | v;
        if (++seen % 4 == 0) {
            out[got++] = (uint8_t)(acc >> 16), out[got++] = (uint8_t)(acc >> 8), out[got++] = (uint8_t)acc;
            acc = 0;
        }
    }
    /* a tail of 2 or 3 characters: 1 or 2 bytes, the bits below them zero */
    unsigned rest = (unsigned)(ndata % 4), spare = rest == 2 ? 4 : rest == 3 ? 2 : 0;
    unsigned bad = (unsigned)acc & ((1u << spare) - 1);
    acc >>= spare;
    if (rest == 3)
        out[got++] = (uint8_t)(acc >> 8);
    if (rest >= 2)
        out[got++] = (uint8_t)acc;
    bad = (bad + 15) >> 4;                    /* 1 when any of the (at most 4) bits is set */
    ic_ct_declassify(&bad, sizeof bad);
    ic_wipe(&acc, sizeof acc);
    if (bad)
        return IC_ERR_DECODE;
    *outlen = got;
    return IC_OK;
}
