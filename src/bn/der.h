/*
 * der.h - a strict reader of DER (ITU-T X.690 10) and of PEM text (RFC
 * 7468) for the key formats of rsa_key.c.  Internal.
 *
 * DER: one element is read at a time from an ic_der cursor (what is left
 * of the enclosing contents); each read names the tag it wants and fails
 * on any other.  Lengths must be definite and in the fewest bytes,
 * INTEGERs in the fewest bytes and non-negative.  Every call returns
 * IC_OK or IC_ERR_DECODE and leaves the cursor past the element on IC_OK.
 *
 * The bytes may be secret (a private key): the reader branches on the
 * structure (tags and lengths, which it declassifies as it reads them)
 * and on the verdicts of its checks, never on the value of an INTEGER's
 * contents.
 */
#ifndef INCORE_BN_DER_H
#define INCORE_BN_DER_H

#include <stddef.h>
#include <stdint.h>

/* The universal tags the key formats use, and [0] constructed. */
#define IC_DER_INTEGER   0x02
#define IC_DER_BITSTRING 0x03
#define IC_DER_OCTETS    0x04
#define IC_DER_NULL      0x05
#define IC_DER_OID       0x06
#define IC_DER_SEQUENCE  0x30
#define IC_DER_CTX0      0xa0

/* Bytes still to be read: the contents of one element, or a whole input. */
typedef struct ic_der {
    const uint8_t *p;
    size_t n;
} ic_der;

/* The element at d with tag tag: its contents into *in, d past it. */
int ic_der_read(ic_der *d, uint8_t tag, ic_der *in);
/* 1 when d is not empty and its next element has tag tag. */
int ic_der_next_is(const ic_der *d, uint8_t tag);
/* IC_OK when nothing is left in d (the end of a SEQUENCE or the input). */
int ic_der_end(const ic_der *d);
/* A non-negative INTEGER in the fewest bytes: its big-endian magnitude
 * into *v (the sign byte 00 kept when there is one; callers whose
 * numbers are secret pass it on as a leading zero byte). */
int ic_der_uint(ic_der *d, ic_der *v);
/* A small non-negative INTEGER (a version): its value into *v, 0..127. */
int ic_der_small(ic_der *d, unsigned *v);
/* The element NULL (05 00). */
int ic_der_null(ic_der *d);
/* An OBJECT IDENTIFIER: its contents into *oid (compared by the caller). */
int ic_der_oid(ic_der *d, ic_der *oid);
/* A BIT STRING with no unused bits: its bytes after the count into *in. */
int ic_der_bits(ic_der *d, ic_der *in);

/* ---- PEM ---------------------------------------------------------------- */

/* The one PEM block at pem (pemlen bytes): whitespace, "-----BEGIN
 * <label>-----", base64 lines, "-----END <label>-----", whitespace.  The
 * label (without the dashes) into *label and *labellen (pointing into
 * pem), the base64 lines between into *b64 / *b64len, the label of END
 * checked to be the same.  IC_OK or IC_ERR_DECODE; the base64 is not
 * looked at. */
int ic_pem_block(const uint8_t *pem, size_t pemlen, const uint8_t **label, size_t *labellen,
                 const uint8_t **b64, size_t *b64len);
/* 1 when the base64 part starts with an RFC 1421 encapsulated header
 * "Proc-Type: 4,ENCRYPTED" (a traditional encrypted PEM). */
int ic_pem_encrypted(const uint8_t *b64, size_t b64len);
/* The base64 (RFC 4648 4) lines in, line breaks (LF, CR) allowed anywhere
 * between characters, decoded in constant time into out (cap bytes):
 * padding '=' only at the end, making a multiple of four characters, and
 * the unused bits of the last character zero.  *outlen set on IC_OK;
 * IC_ERR_DECODE for anything else, IC_ERR_TOOLONG when the bytes would
 * not fit in cap.  On failure out may hold part of the bytes: the caller
 * wipes it. */
int ic_base64_decode(uint8_t *out, size_t cap, size_t *outlen, const uint8_t *in, size_t inlen);

#endif
