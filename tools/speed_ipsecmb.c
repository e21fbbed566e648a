/*
 * speed_ipsecmb.c - Intel's Multi-Buffer Crypto for IPsec (intel-ipsec-mb,
 * the library under DPDK; Debian libipsec-mb1 / libipsec-mb-dev) as a peer
 * of `incore speed`, in two ways its users call it:
 *  - "ipsecmb": the direct API, one call per message on expanded keys:
 *    IMB_AES128/256_GCM_ENC and _DEC (keys from IMB_AES*_GCM_PRE once;
 *    the peer of the streaming rows and of the key-object rows
 *    aes-*-gcm-key and aes-*-gcm-key-open, the same kind of call),
 *    IMB_CHACHA20_POLY1305_INIT + ENC_UPDATE + ENC_FINALIZE (DEC_UPDATE +
 *    DEC_FINALIZE and a tag comparison to open), IMB_SHA1 /
 *    IMB_SHA256 / IMB_SHA512 and IMB_CRC32_ETHERNET_FCS (the Ethernet FCS is
 *    zlib's CRC-32);
 *  - "ipsecmb-job": the job API, one job per message (IMB_GET_NEXT_JOB,
 *    fill, IMB_SUBMIT_JOB, IMB_FLUSH_JOB until it is back): AES-GCM
 *    (cipher GCM with AES_GMAC), AES-CTR (the only way the library offers
 *    CTR) and ChaCha20-Poly1305.  One message in flight is how a caller
 *    with one buffer at a time uses it; a multi-buffer caller with many
 *    flows interleaves jobs, which `incore speed --threads` does not model.
 * The manager comes from alloc_mb_mgr(0) + init_mb_mgr_auto(), so the
 * library picks its code path for the CPU (SSE, AVX, AVX2, AVX-512 with
 * VAES) as it does for DPDK.
 *
 * Unlike the other peers (speed_peers.c), the prototypes here cannot be
 * written out: the direct API is a table of function pointers inside the
 * IMB_MGR structure, whose layout belongs to one library version.  So this
 * file needs <intel-ipsec-mb.h> at build time and is a stub without it; the
 * library itself is still opened with dlopen(), and only when its
 * imb_get_version() is the header's IMB_VERSION_NUM (another version's
 * structure would be read wrongly).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incore/incore.h"
#include "tools.h"

#if defined(__x86_64__) && defined(__has_include)
#if __has_include(<intel-ipsec-mb.h>)
#define HAVE_IPSECMB 1
#endif
#endif

#ifdef HAVE_IPSECMB
#include <intel-ipsec-mb.h>

static struct {
    int loaded;   /* 0 not tried, 1 usable, -1 not */
    char why[160];
    char version[64];
    IMB_MGR *mgr;
} L;

/* dlopen, version check, one manager for the process (never freed: the
 * peers stay loaded for the life of the process). */
int speed_ipsecmb_load(char *why, size_t whylen)
{
    if (L.loaded == 0) {
        L.loaded = -1;
        void *h = dlopen("libIPSec_MB.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!h)
            h = dlopen("libIPSec_MB.so", RTLD_NOW | RTLD_LOCAL);
        IMB_MGR *(*alloc)(uint64_t) = NULL;
        void (*init)(IMB_MGR *, IMB_ARCH *) = NULL;
        unsigned (*version)(void) = NULL;
        const char *(*version_str)(void) = NULL;
        if (!h) {
            snprintf(L.why, sizeof L.why, "%s", dlerror());
        } else {
            void *f;
            /* object <- function pointer through memcpy (POSIX dlsym) */
            if ((f = dlsym(h, "alloc_mb_mgr")) != NULL) memcpy(&alloc, &f, sizeof f);
            if ((f = dlsym(h, "init_mb_mgr_auto")) != NULL) memcpy(&init, &f, sizeof f);
            if ((f = dlsym(h, "imb_get_version")) != NULL) memcpy(&version, &f, sizeof f);
            if ((f = dlsym(h, "imb_get_version_str")) != NULL) memcpy(&version_str, &f, sizeof f);
            if (!alloc || !init || !version || !version_str)
                snprintf(L.why, sizeof L.why, "libIPSec_MB lacks the manager calls");
            else if (version() != IMB_VERSION_NUM)
                snprintf(L.why, sizeof L.why, "libIPSec_MB %s, built against the %s header", version_str(),
                         IMB_VERSION_STR);
            else if ((L.mgr = alloc(0)) == NULL)
                snprintf(L.why, sizeof L.why, "alloc_mb_mgr failed");
            else {
                IMB_ARCH arch = IMB_ARCH_NONE;
                init(L.mgr, &arch);
                static const char *const arch_name[] = {"none", "no-aesni", "sse", "avx", "avx2", "avx512"};
                snprintf(L.version, sizeof L.version, "intel-ipsec-mb %s (%s code)", version_str(),
                         (unsigned)arch < sizeof arch_name / sizeof *arch_name ? arch_name[arch] : "?");
                L.loaded = arch == IMB_ARCH_NONE ? -1 : 1;
                if (L.loaded < 0)
                    snprintf(L.why, sizeof L.why, "init_mb_mgr_auto found no code path");
            }
        }
    }
    if (L.loaded < 0)
        snprintf(why, whylen, "%s", L.why);
    return L.loaded > 0 ? 0 : -1;
}

const char *speed_ipsecmb_version(void)
{
    return L.loaded > 0 ? L.version : "";
}

const char *speed_ipsecmb_call(int job, const speed_alg *a)
{
    int k = a->kind;
    int gcm = (k == SK_GCM_SEAL || k == SK_GCM_OPEN) && (a->param == 16 || a->param == 32);
    if ((k == SK_GCM_KEY || k == SK_GCM_KEY_OPEN) && (a->param == 16 || a->param == 32))
        return job ? NULL : k == SK_GCM_KEY ? "IMB_AES*_GCM_ENC" : "IMB_AES*_GCM_DEC";
    if (job) {
        if (gcm || k == SK_C20P1305 || k == SK_C20P1305_OPEN)
            return "IMB_SUBMIT_JOB (AEAD)";
        return k == SK_CTR ? "IMB_SUBMIT_JOB (CNTR)" : NULL;
    }
    if (gcm)
        return k == SK_GCM_SEAL ? "IMB_AES*_GCM_ENC" : "IMB_AES*_GCM_DEC";
    switch (k) {
    case SK_C20P1305: return "IMB_CHACHA20_POLY1305_*";
    case SK_C20P1305_OPEN: return "IMB_CHACHA20_POLY1305_*(DEC)";
    case SK_CRC32: return "IMB_CRC32_ETHERNET_FCS";
    case SK_HASH:
        return a->param == IC_HASH_SHA1 ? "IMB_SHA1" : a->param == IC_HASH_SHA256 ? "IMB_SHA256"
               : a->param == IC_HASH_SHA512                                      ? "IMB_SHA512"
                                                                                 : NULL;
    default: return NULL;
    }
}

/* Expanded keys of one job, 64-byte aligned as the library wants them. */
typedef struct {
    struct gcm_key_data gcm;                         /* AES-GCM          */
    DECLARE_ALIGNED(uint32_t enc[60], 16);           /* AES-CTR schedule */
    DECLARE_ALIGNED(uint32_t dec[60], 16);
    struct gcm_context_data gctx;
    struct chacha20_poly1305_context_data cctx;
} ipsecmb_state;

int speed_ipsecmb_setup(int job, speed_job *j, char *why, size_t whylen)
{
    (void)job;
    j->state = NULL;
    if (speed_ipsecmb_load(why, whylen) != 0)
        return -1;
    ipsecmb_state *s = aligned_alloc(64, (sizeof(ipsecmb_state) + 63) / 64 * 64);
    if (!s) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    memset(s, 0, sizeof *s);
    j->state = s;
    IMB_MGR *m = L.mgr;
    switch (j->alg->kind) {
    case SK_GCM_SEAL:
    case SK_GCM_OPEN:
    case SK_GCM_KEY:
    case SK_GCM_KEY_OPEN:
        if (j->alg->param == 16)
            IMB_AES128_GCM_PRE(m, j->key, &s->gcm);
        else
            IMB_AES256_GCM_PRE(m, j->key, &s->gcm);
        break;
    case SK_CTR:
        if (j->alg->param == 16)
            IMB_AES_KEYEXP_128(m, j->key, s->enc, s->dec);
        else if (j->alg->param == 24)
            IMB_AES_KEYEXP_192(m, j->key, s->enc, s->dec);
        else
            IMB_AES_KEYEXP_256(m, j->key, s->enc, s->dec);
        break;
    default: break;
    }
    return 0;
}

/* One job through the manager: submit, then flush until it comes back. */
static void run_job(speed_job *j, IMB_JOB *jb)
{
    IMB_MGR *m = L.mgr;
    IMB_JOB *done = IMB_SUBMIT_JOB(m);
    while (done == NULL)
        done = IMB_FLUSH_JOB(m);
    if (done != jb || done->status != IMB_STATUS_COMPLETED)
        j->failed = 1;
    while (IMB_GET_COMPLETED_JOB(m) != NULL)   /* none expected: keep the queue empty */
        ;
}

static void job_run(speed_job *j, size_t len)
{
    ipsecmb_state *s = j->state;
    const speed_alg *a = j->alg;
    int open = a->kind == SK_GCM_OPEN || a->kind == SK_C20P1305_OPEN;
    uint8_t tag[16];
    IMB_JOB *jb = IMB_GET_NEXT_JOB(L.mgr);
    jb->src = open ? j->ct : j->buf;
    jb->dst = open ? j->out : j->buf;
    jb->cipher_start_src_offset_in_bytes = 0;
    jb->msg_len_to_cipher_in_bytes = len;
    jb->hash_start_src_offset_in_bytes = 0;
    jb->msg_len_to_hash_in_bytes = len;
    jb->cipher_direction = open ? IMB_DIR_DECRYPT : IMB_DIR_ENCRYPT;
    jb->chain_order = open ? IMB_ORDER_HASH_CIPHER : IMB_ORDER_CIPHER_HASH;
    jb->iv = j->iv;
    jb->auth_tag_output = open ? tag : j->aux;
    jb->auth_tag_output_len_in_bytes = 16;
    if (a->kind == SK_CTR) {
        jb->cipher_mode = IMB_CIPHER_CNTR;
        jb->hash_alg = IMB_AUTH_NULL;
        jb->enc_keys = s->enc;
        jb->dec_keys = s->dec;
        jb->key_len_in_bytes = a->param;
        jb->iv_len_in_bytes = 16;   /* the whole counter block */
    } else if (a->kind == SK_C20P1305 || a->kind == SK_C20P1305_OPEN) {
        jb->cipher_mode = IMB_CIPHER_CHACHA20_POLY1305;
        jb->hash_alg = IMB_AUTH_CHACHA20_POLY1305;
        jb->enc_keys = jb->dec_keys = j->key;
        jb->key_len_in_bytes = 32;
        jb->iv_len_in_bytes = 12;
        jb->u.CHACHA20_POLY1305.aad = j->aad;
        jb->u.CHACHA20_POLY1305.aad_len_in_bytes = j->aadlen;
    } else {
        jb->cipher_mode = IMB_CIPHER_GCM;
        jb->hash_alg = IMB_AUTH_AES_GMAC;
        jb->enc_keys = jb->dec_keys = &s->gcm;
        jb->key_len_in_bytes = a->param;
        jb->iv_len_in_bytes = 12;
        jb->u.GCM.aad = j->aad;
        jb->u.GCM.aad_len_in_bytes = j->aadlen;
    }
    run_job(j, jb);
    /* the library computes the tag; checking it is the caller's part */
    if (open && memcmp(tag, j->ct + len, 16) != 0)
        j->failed = 1;
}

static void direct_run(speed_job *j, size_t len)
{
    ipsecmb_state *s = j->state;
    IMB_MGR *m = L.mgr;
    const speed_alg *a = j->alg;
    uint8_t tag[16];
    switch (a->kind) {
    case SK_GCM_SEAL:
    case SK_GCM_KEY:
        if (a->param == 16)
            IMB_AES128_GCM_ENC(m, &s->gcm, &s->gctx, j->buf, j->buf, len, j->iv, j->aad, j->aadlen, j->aux, 16);
        else
            IMB_AES256_GCM_ENC(m, &s->gcm, &s->gctx, j->buf, j->buf, len, j->iv, j->aad, j->aadlen, j->aux, 16);
        return;
    case SK_GCM_OPEN:
    case SK_GCM_KEY_OPEN:
        if (a->param == 16)
            IMB_AES128_GCM_DEC(m, &s->gcm, &s->gctx, j->out, j->ct, len, j->iv, j->aad, j->aadlen, tag, 16);
        else
            IMB_AES256_GCM_DEC(m, &s->gcm, &s->gctx, j->out, j->ct, len, j->iv, j->aad, j->aadlen, tag, 16);
        if (memcmp(tag, j->ct + len, 16) != 0)
            j->failed = 1;
        return;
    case SK_C20P1305:
        IMB_CHACHA20_POLY1305_INIT(m, j->key, &s->cctx, j->iv, j->aad, j->aadlen);
        IMB_CHACHA20_POLY1305_ENC_UPDATE(m, j->key, &s->cctx, j->buf, j->buf, len);
        IMB_CHACHA20_POLY1305_ENC_FINALIZE(m, &s->cctx, j->aux, 16);
        return;
    case SK_C20P1305_OPEN:
        IMB_CHACHA20_POLY1305_INIT(m, j->key, &s->cctx, j->iv, j->aad, j->aadlen);
        IMB_CHACHA20_POLY1305_DEC_UPDATE(m, j->key, &s->cctx, j->out, j->ct, len);
        IMB_CHACHA20_POLY1305_DEC_FINALIZE(m, &s->cctx, tag, 16);
        if (memcmp(tag, j->ct + len, 16) != 0)
            j->failed = 1;
        return;
    case SK_HASH:
        if (a->param == IC_HASH_SHA1)
            IMB_SHA1(m, j->buf, len, j->aux);
        else if (a->param == IC_HASH_SHA256)
            IMB_SHA256(m, j->buf, len, j->aux);
        else
            IMB_SHA512(m, j->buf, len, j->aux);
        return;
    case SK_CRC32: {
        speed_put_le32(j->aux, IMB_CRC32_ETHERNET_FCS(m, j->buf, len));
        return;
    }
    default: return;
    }
}

void speed_ipsecmb_run(int job, speed_job *j, size_t len)
{
    if (job)
        job_run(j, len);
    else
        direct_run(j, len);
}

void speed_ipsecmb_free(speed_job *j)
{
    if (j->state) {
        memset(j->state, 0, sizeof(ipsecmb_state));   /* expanded keys */
        free(j->state);
        j->state = NULL;
    }
}

#else /* no <intel-ipsec-mb.h> at build time, or not x86-64 */

int speed_ipsecmb_load(char *why, size_t whylen)
{
    snprintf(why, whylen, "%s", "incore was built without intel-ipsec-mb.h (libipsec-mb-dev)");
    return -1;
}
const char *speed_ipsecmb_version(void) { return ""; }
const char *speed_ipsecmb_call(int job, const speed_alg *a)
{
    (void)job, (void)a;
    return NULL;
}
int speed_ipsecmb_setup(int job, speed_job *j, char *why, size_t whylen)
{
    (void)job, (void)j;
    return speed_ipsecmb_load(why, whylen);
}
void speed_ipsecmb_run(int job, speed_job *j, size_t len) { (void)job, (void)j, (void)len; }
void speed_ipsecmb_free(speed_job *j) { (void)j; }

#endif
