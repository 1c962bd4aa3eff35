package io.etcdworkers.restore.extract.encryption;

import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * kube-apiserver's {@code aesgcm} values (after the {@code k8s:enc:aesgcm:v1:<key name>:} prefix):
 * a 12-byte nonce, then the AES-GCM ciphertext with its 16-byte tag at the end. The authenticated
 * data is the etcd key the value is stored under (kube-apiserver's {@code storage/etcd3} passes
 * {@code authenticatedDataString(preparedKey)} to every transform), so a value copied to another
 * key does not open.
 */
final class AesGcm {
    static final int NONCE = 12;
    static final int TAG = 16;

    private AesGcm() {}

    static byte[] open(byte[] key, byte[] data, byte[] etcdKey) throws CannotDecrypt {
        if (data.length < NONCE) {
            throw new CannotDecrypt("the stored data was shorter than the required size");
        }
        if (data.length < NONCE + TAG) {
            // Go's Open refuses a ciphertext shorter than its tag; the JDK's GCM throws an unchecked
            // ProviderException for it
            throw new CannotDecrypt("message authentication failed");
        }
        Cipher cipher;
        try {
            cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(
                    Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG * 8, data, 0, NONCE));
        } catch (GeneralSecurityException e) {
            // a valid key length (the configuration checks it) and a 12-byte nonce never fail here
            throw new IllegalStateException(
                    "AES-GCM refused its parameters: " + e.getClass().getSimpleName(), e);
        }
        cipher.updateAAD(etcdKey);
        try {
            return cipher.doFinal(data, NONCE, data.length - NONCE);
        } catch (GeneralSecurityException e) {
            // a tag that does not match, or a value too short to hold one: Go's "message authentication failed"
            throw new CannotDecrypt("message authentication failed");
        }
    }
}
