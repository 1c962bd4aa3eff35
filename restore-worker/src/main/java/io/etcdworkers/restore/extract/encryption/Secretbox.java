package io.etcdworkers.restore.extract.encryption;

import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;
import org.bouncycastle.util.Arrays;

/**
 * kube-apiserver's {@code secretbox} values (after the {@code k8s:enc:secretbox:v1:<key name>:}
 * prefix): a 24-byte nonce, then NaCl's {@code crypto_secretbox} box (Go's {@code
 * nacl/secretbox.Seal}): the 16-byte Poly1305 tag, then the XSalsa20 ciphertext. Opened as NaCl
 * does, with Bouncy Castle's XSalsa20 and Poly1305: the first 32 bytes of the key stream are the
 * one-time Poly1305 key, the tag is checked over the ciphertext (in constant time) before anything
 * is deciphered, and the value is deciphered with the key stream from byte 32 on. No
 * authenticated data: the etcd key plays no part.
 */
final class Secretbox {
    static final int NONCE = 24;
    static final int TAG = 16;
    private static final int MAC_KEY = 32;

    private Secretbox() {}

    static byte[] open(byte[] key, byte[] data) throws CannotDecrypt {
        if (data.length < NONCE + TAG) {
            throw new CannotDecrypt("the stored data was shorter than the required size");
        }
        XSalsa20Engine stream = new XSalsa20Engine();
        stream.init(false, new ParametersWithIV(new KeyParameter(key), data, 0, NONCE));
        byte[] macKey = new byte[MAC_KEY];
        stream.processBytes(new byte[MAC_KEY], 0, MAC_KEY, macKey, 0);
        int offset = NONCE + TAG;
        int length = data.length - offset;
        Poly1305 mac = new Poly1305();
        mac.init(new KeyParameter(macKey));
        mac.update(data, offset, length);
        byte[] tag = new byte[TAG];
        mac.doFinal(tag, 0);
        if (!Arrays.constantTimeAreEqual(TAG, tag, 0, data, NONCE)) {
            // Go's secretbox.Open says only "not ok" (and kube-apiserver then misleadingly "output array was not
            // large enough"): the tag does not match, as with AES-GCM
            throw new CannotDecrypt("message authentication failed");
        }
        byte[] plain = new byte[length];
        stream.processBytes(data, offset, length, plain, 0);
        return plain;
    }
}
