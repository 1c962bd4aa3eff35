package io.etcdworkers.restore.extract.encryption;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the values of one extract into what it writes, counting by provider and key: a value
 * without the {@code k8s:enc:} prefix as it is; an {@code aescbc}, {@code aesgcm} or {@code
 * secretbox} value decrypted with the configuration's key of the name in its prefix (each such key
 * tried in the file's order, as kube-apiserver does, the first that opens it wins); a KMS value, or
 * any value when no configuration was given, as stored. A value the configuration should decrypt
 * but does not (no key of that name, or none of them opens it) is counted as failed and written as
 * stored; {@link EncryptionSummary#failure} then fails the extract before anything is placed.
 *
 * <p>One per extract, on the thread that writes the files.
 */
public final class AtRestDecryption {
    private static final Logger LOG = LoggerFactory.getLogger(AtRestDecryption.class);

    private final Optional<EncryptionConfiguration> config;
    private final TreeMap<StoredPrefix, KeyUse.Counter> uses = new TreeMap<>();

    private AtRestDecryption(Optional<EncryptionConfiguration> config) {
        this.config = config;
    }

    /** Decrypts with {@code config}'s keys; without one, every encrypted value is written as stored. */
    public static AtRestDecryption of(Optional<EncryptionConfiguration> config) {
        return new AtRestDecryption(config);
    }

    /** The value to write for {@code stored}, found under {@code etcdKey}. */
    public OpenedValue open(byte[] etcdKey, byte[] stored) {
        if (!StoredPrefix.isEncrypted(stored)) {
            return OpenedValue.plain(stored);
        }
        if (config.isEmpty()) {
            return asStored(etcdKey, stored, StoredPrefix.of(stored), null);
        }
        List<DataKey> candidates = candidates(stored);
        if (!candidates.isEmpty()) {
            return decrypt(etcdKey, stored, candidates);
        }
        for (KmsPlugin plugin : config.get().plugins()) {
            if (startsWith(stored, plugin.prefix())) {
                return asStored(etcdKey, stored, new StoredPrefix("kms", plugin.apiVersion(), plugin.name()), plugin);
            }
        }
        StoredPrefix origin = StoredPrefix.of(stored);
        if (KeyProvider.named(origin.provider()).isPresent()) {
            counter(origin, etcdKey)
                    .fail(text(etcdKey), "the configuration has no " + origin.provider() + " key of that name");
            return OpenedValue.asStored(stored, origin);
        }
        return asStored(etcdKey, stored, origin, null);
    }

    /** What was decrypted, left encrypted and not decrypted, by provider and key name. */
    public EncryptionSummary summary() {
        List<KeyUse> list = new ArrayList<>();
        uses.forEach((origin, counter) -> list.add(counter.use(origin)));
        return new EncryptionSummary(config.map(EncryptionConfiguration::file), list);
    }

    private OpenedValue decrypt(byte[] etcdKey, byte[] stored, List<DataKey> candidates) {
        StoredPrefix origin = new StoredPrefix(
                candidates.get(0).provider().configName(),
                "v1",
                candidates.get(0).name());
        List<String> reasons = new ArrayList<>();
        for (DataKey key : candidates) {
            byte[] data = Arrays.copyOfRange(stored, key.prefix().length, stored.length);
            try {
                byte[] plaintext = key.open(data, etcdKey);
                counter(origin, etcdKey).decrypted++;
                LOG.debug("decrypted key={} with={}", text(etcdKey), key);
                return OpenedValue.decrypted(plaintext, origin);
            } catch (CannotDecrypt e) {
                reasons.add(key.where() + ": " + e.getMessage());
            }
        }
        counter(origin, etcdKey)
                .fail(
                        text(etcdKey),
                        "the configuration's key of that name does not decrypt it (" + String.join("; ", reasons)
                                + ")");
        return OpenedValue.asStored(stored, origin);
    }

    private OpenedValue asStored(byte[] etcdKey, byte[] stored, StoredPrefix origin, KmsPlugin plugin) {
        KeyUse.Counter counter = counter(origin, etcdKey);
        counter.leftEncrypted++;
        counter.plugin = plugin;
        return OpenedValue.asStored(stored, origin);
    }

    /** The configuration's keys whose prefix the value has, each secret once, in the file's order. */
    private List<DataKey> candidates(byte[] stored) {
        List<DataKey> out = new ArrayList<>();
        for (DataKey key : config.get().keys()) {
            if (startsWith(stored, key.prefix()) && out.stream().noneMatch(key::sameAs)) {
                out.add(key);
            }
        }
        return out;
    }

    private KeyUse.Counter counter(StoredPrefix origin, byte[] etcdKey) {
        return uses.computeIfAbsent(origin, o -> new KeyUse.Counter(text(etcdKey)));
    }

    private static boolean startsWith(byte[] value, byte[] prefix) {
        return value.length >= prefix.length && Arrays.equals(value, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static String text(byte[] etcdKey) {
        return new String(etcdKey, StandardCharsets.UTF_8);
    }
}
