package io.etcdworkers.restore.extract.encryption;

import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * kube-apiserver's {@code aescbc} values (after the {@code k8s:enc:aescbc:v1:<key name>:} prefix):
 * a 16-byte IV, then the AES-CBC ciphertext of the value with PKCS#7 padding. CBC authenticates
 * nothing, so the etcd key plays no part. The padding is removed and checked as kube-apiserver
 * does ({@code encrypt/aes}): the last byte {@code n} must be non-zero, at most the length, and the
 * last {@code n} bytes all {@code n}. Its check accepts {@code n} above the block size, which the
 * JDK's {@code PKCS5Padding} would refuse, so the JDK deciphers without padding and the check is
 * kube-apiserver's own.
 */
final class AesCbc {
    static final int BLOCK = 16;

    private AesCbc() {}

    static byte[] open(byte[] key, byte[] data) throws CannotDecrypt {
        if (data.length < BLOCK) {
            throw new CannotDecrypt("the stored data was shorter than the required size");
        }
        int length = data.length - BLOCK;
        if (length % BLOCK != 0) {
            throw new CannotDecrypt("the stored data is not a multiple of the block size");
        }
        if (length == 0) {
            throw new CannotDecrypt("invalid PKCS7 data (empty or not padded)");
        }
        byte[] padded;
        try {
            Cipher cipher = Cipher.getInstance("AES/CBC/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(data, 0, BLOCK));
            padded = cipher.doFinal(data, BLOCK, length);
        } catch (GeneralSecurityException e) {
            // a block multiple with a valid key length (the configuration checks it) never fails here
            throw new IllegalStateException(
                    "AES-CBC refused a block-aligned value: " + e.getClass().getSimpleName(), e);
        }
        int pad = padded[padded.length - 1] & 0xff;
        if (pad == 0 || pad > padded.length) {
            throw new CannotDecrypt("invalid PKCS7 data (empty or not padded)");
        }
        for (int i = padded.length - pad; i < padded.length; i++) {
            if ((padded[i] & 0xff) != pad) {
                throw new CannotDecrypt("invalid padding on input");
            }
        }
        return Arrays.copyOf(padded, padded.length - pad);
    }
}
