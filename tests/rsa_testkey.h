/*
 * rsa_testkey.h - one 2048-bit RSA private key for the tests that need a
 * key but no vector file (test_badinput, ct_check): the first key of
 * Project Wycheproof's rsa_oaep_2048_sha256_mgf1sha256_test.json (also
 * the key of rsa_signature_2048_sha256_test.json), as hex strings in the
 * order n, e, d, p, q, dp, dq, qinv: the 2048-bit key of the speed rows
 * (tools/speed_rsakeys.h), so the hex is written once.
 */
#ifndef INCORE_TEST_RSA_TESTKEY_H
#define INCORE_TEST_RSA_TESTKEY_H

#include "../tools/speed_rsakeys.h"

enum { RK_N, RK_E, RK_D, RK_P, RK_Q, RK_DP, RK_DQ, RK_QINV, RK_PARTS };
#define rsa_testkey_hex (speed_rsakeys[0].part)       /* speed_rsakeys[0] is the 2048-bit key */

#endif
