package io.etcdworkers.restore.extract.encryption;

import java.util.Optional;

/**
 * The values of one provider and key name in an extract.
 *
 * @param origin the provider, version and key (or KMS provider) name
 * @param decrypted values decrypted
 * @param leftEncrypted values written as stored: KMS, an unknown provider, or no configuration given
 * @param failed values the configuration should have decrypted and did not
 * @param firstKey the first etcd key with this prefix
 * @param plugin for KMS: the configuration's provider of that name, when it has one
 * @param failure for failed values: the first such etcd key and why (no key of that name, or what
 *     each key of it said)
 */
public record KeyUse(
        StoredPrefix origin,
        long decrypted,
        long leftEncrypted,
        long failed,
        String firstKey,
        Optional<KmsPlugin> plugin,
        Optional<Failure> failure) {

    /** The first value that failed, and why. */
    public record Failure(String etcdKey, String reason) {}

    /** Mutable while an extract writes. */
    static final class Counter {
        final String firstKey;
        long decrypted;
        long leftEncrypted;
        long failed;
        KmsPlugin plugin;
        Failure failure;

        Counter(String firstKey) {
            this.firstKey = firstKey;
        }

        void fail(String etcdKey, String why) {
            failed++;
            if (failure == null) {
                failure = new Failure(etcdKey, why);
            }
        }

        KeyUse use(StoredPrefix origin) {
            return new KeyUse(
                    origin,
                    decrypted,
                    leftEncrypted,
                    failed,
                    firstKey,
                    Optional.ofNullable(plugin),
                    Optional.ofNullable(failure));
        }
    }
}
