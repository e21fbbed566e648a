/*
 * provider/algorithms.c - the cipher table: OpenSSL's names, aliases and
 * OIDs for each implementation, all with the property provider=incore.
 */
#include "prov.h"

#define CIPHER(names, fn, desc) { names, PROV_PROPS, fn, desc }

const OSSL_ALGORITHM prov_ciphers[] = {
    CIPHER("AES-128-GCM:id-aes128-GCM:2.16.840.1.101.3.4.1.6", prov_aes128gcm_functions, "AES-128-GCM (incore)"),
    CIPHER("AES-192-GCM:id-aes192-GCM:2.16.840.1.101.3.4.1.26", prov_aes192gcm_functions, "AES-192-GCM (incore)"),
    CIPHER("AES-256-GCM:id-aes256-GCM:2.16.840.1.101.3.4.1.46", prov_aes256gcm_functions, "AES-256-GCM (incore)"),
    CIPHER("ChaCha20-Poly1305", prov_chacha20_poly1305_functions, "ChaCha20-Poly1305 (incore)"),
    CIPHER("ChaCha20", prov_chacha20_functions, "ChaCha20 (incore)"),
    CIPHER("AES-128-CTR", prov_aes128ctr_functions, "AES-128-CTR (incore)"),
    CIPHER("AES-192-CTR", prov_aes192ctr_functions, "AES-192-CTR (incore)"),
    CIPHER("AES-256-CTR", prov_aes256ctr_functions, "AES-256-CTR (incore)"),
    CIPHER("AES-128-CBC:AES128:2.16.840.1.101.3.4.1.2", prov_aes128cbc_functions, "AES-128-CBC (incore)"),
    CIPHER("AES-192-CBC:AES192:2.16.840.1.101.3.4.1.22", prov_aes192cbc_functions, "AES-192-CBC (incore)"),
    CIPHER("AES-256-CBC:AES256:2.16.840.1.101.3.4.1.42", prov_aes256cbc_functions, "AES-256-CBC (incore)"),
    CIPHER("AES-128-ECB:2.16.840.1.101.3.4.1.1", prov_aes128ecb_functions, "AES-128-ECB (incore)"),
    CIPHER("AES-192-ECB:2.16.840.1.101.3.4.1.21", prov_aes192ecb_functions, "AES-192-ECB (incore)"),
    CIPHER("AES-256-ECB:2.16.840.1.101.3.4.1.41", prov_aes256ecb_functions, "AES-256-ECB (incore)"),
    CIPHER("AES-128-CFB:2.16.840.1.101.3.4.1.4", prov_aes128cfb_functions, "AES-128-CFB (incore)"),
    CIPHER("AES-192-CFB:2.16.840.1.101.3.4.1.24", prov_aes192cfb_functions, "AES-192-CFB (incore)"),
    CIPHER("AES-256-CFB:2.16.840.1.101.3.4.1.44", prov_aes256cfb_functions, "AES-256-CFB (incore)"),
    CIPHER("AES-128-OFB:2.16.840.1.101.3.4.1.3", prov_aes128ofb_functions, "AES-128-OFB (incore)"),
    CIPHER("AES-192-OFB:2.16.840.1.101.3.4.1.23", prov_aes192ofb_functions, "AES-192-OFB (incore)"),
    CIPHER("AES-256-OFB:2.16.840.1.101.3.4.1.43", prov_aes256ofb_functions, "AES-256-OFB (incore)"),
    CIPHER("AES-128-XTS:1.3.111.2.1619.0.1.1", prov_aes128xts_functions, "AES-128-XTS (incore)"),
    CIPHER("AES-256-XTS:1.3.111.2.1619.0.1.2", prov_aes256xts_functions, "AES-256-XTS (incore)"),
    { NULL, NULL, NULL, NULL }
};
