/*
 * incore.h - the whole public API of incore.
 *
 * incore runs each primitive on the crypto hardware of the CPU it finds
 * itself on and on a constant-time portable path where there is none.
 * See README.md for a tour and docs/architecture.md for the design.
 */
#ifndef INCORE_INCORE_H
#define INCORE_INCORE_H

#include "incore/common.h"
#include "incore/aes.h"
#include "incore/xts.h"
#include "incore/gcm.h"
#include "incore/sha.h"
#include "incore/hmac.h"
#include "incore/chacha.h"
#include "incore/poly1305.h"
#include "incore/crc.h"
#include "incore/rand.h"
#include "incore/bignum.h"
#include "incore/rsa.h"

#endif
