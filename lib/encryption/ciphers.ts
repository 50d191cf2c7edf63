// The three ciphers of kube's EncryptionConfiguration, with kube's byte layouts (k8s.io/apiserver
// storage/value/encrypt): what seal returns is exactly what kube-apiserver writes after the key's prefix.
//   aesgcm:    nonce (12 random bytes) | ciphertext | tag (16); the storage key is the authenticated data
//   aescbc:    IV (16 random bytes) | ciphertext of the value with PKCS#7 padding
//   secretbox: nonce (24 random bytes) | XSalsa20-Poly1305 box (tweetnacl; node:crypto has no XSalsa20)
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from "node:crypto";
import nacl from "tweetnacl";
import type { CipherName } from "./encryption-config";

export interface Cipher {
  seal(plain: Buffer, aad: Buffer): Buffer;
  /** Throws a short, value-free Error when the data cannot be opened with this key. */
  open(data: Buffer, aad: Buffer): Buffer;
}

const GCM_NONCE = 12, GCM_TAG = 16, CBC_IV = 16, BOX_NONCE = 24;

const tooShort = () => new Error("the stored data was shorter than the required size");

export function cipherFor(type: CipherName, key: Buffer): Cipher {
  switch (type) {
    case "aesgcm": return aesGcm(key);
    case "aescbc": return aesCbc(key);
    case "secretbox": return secretbox(key);
  }
}

function aesGcm(key: Buffer): Cipher {
  const algorithm = `aes-${key.length * 8}-gcm` as CipherGCMTypes;
  return {
    seal(plain, aad) {
      const nonce = randomBytes(GCM_NONCE);
      const c = createCipheriv(algorithm, key, nonce);
      c.setAAD(aad);
      const body = Buffer.concat([c.update(plain), c.final()]);
      return Buffer.concat([nonce, body, c.getAuthTag()]);
    },
    open(data, aad) {
      if (data.length < GCM_NONCE + GCM_TAG) throw tooShort();
      const d = createDecipheriv(algorithm, key, data.subarray(0, GCM_NONCE));
      d.setAAD(aad);
      d.setAuthTag(data.subarray(data.length - GCM_TAG));
      try {
        return Buffer.concat([d.update(data.subarray(GCM_NONCE, data.length - GCM_TAG)), d.final()]);
      } catch {
        throw new Error("message authentication failed");
      }
    },
  };
}

function aesCbc(key: Buffer): Cipher {
  const algorithm = `aes-${key.length * 8}-cbc`;
  return {
    seal(plain) {
      const iv = randomBytes(CBC_IV);
      const c = createCipheriv(algorithm, key, iv); // PKCS#7 padding is node's default
      return Buffer.concat([iv, c.update(plain), c.final()]);
    },
    open(data) {
      if (data.length < CBC_IV) throw tooShort();
      if ((data.length - CBC_IV) % 16 !== 0) throw new Error("the stored data is not a multiple of the block size");
      const d = createDecipheriv(algorithm, key, data.subarray(0, CBC_IV));
      try {
        return Buffer.concat([d.update(data.subarray(CBC_IV)), d.final()]);
      } catch {
        throw new Error("invalid padding on input");
      }
    },
  };
}

function secretbox(key: Buffer): Cipher {
  const k = new Uint8Array(key);
  return {
    seal(plain) {
      const nonce = randomBytes(BOX_NONCE);
      return Buffer.concat([nonce, Buffer.from(nacl.secretbox(new Uint8Array(plain), new Uint8Array(nonce), k))]);
    },
    open(data) {
      if (data.length < BOX_NONCE + nacl.secretbox.overheadLength) throw tooShort();
      const out = nacl.secretbox.open(new Uint8Array(data.subarray(BOX_NONCE)), new Uint8Array(data.subarray(0, BOX_NONCE)), k);
      if (!out) throw new Error("message authentication failed");
      return Buffer.from(out);
    },
  };
}
