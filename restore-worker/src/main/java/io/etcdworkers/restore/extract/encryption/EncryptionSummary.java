package io.etcdworkers.restore.extract.encryption;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.contract.WorkerFlags;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * The encrypted values of one extract, by provider and key name.
 *
 * @param config the EncryptionConfiguration given, if any
 * @param uses one entry per provider, version and key name seen, in that order
 */
public record EncryptionSummary(Optional<Path> config, List<KeyUse> uses) {
    public EncryptionSummary {
        uses = List.copyOf(uses);
    }

    public long decrypted() {
        return sum(KeyUse::decrypted);
    }

    public long leftEncrypted() {
        return sum(KeyUse::leftEncrypted);
    }

    public long failed() {
        return sum(KeyUse::failed);
    }

    /** Decrypted values by provider ({@code aescbc}, {@code aesgcm}, {@code secretbox}). */
    public TreeMap<String, Long> decryptedBy() {
        return by(KeyUse::decrypted);
    }

    /** Values written as stored, by provider ({@code kms}, or any when no configuration was given). */
    public TreeMap<String, Long> leftEncryptedBy() {
        return by(KeyUse::leftEncrypted);
    }

    /** One line per provider and key whose values were written as stored: what they need. */
    public List<String> warnings() {
        return uses.stream()
                .filter(u -> u.leftEncrypted() > 0)
                .map(this::warning)
                .toList();
    }

    /**
     * {@code USAGE} naming every key the configuration should have decrypted with and did not, with
     * a value it failed on; empty when there is none.
     */
    public Optional<WorkerException> failure(Path output) {
        List<KeyUse> failed = uses.stream().filter(u -> u.failed() > 0).toList();
        if (failed.isEmpty()) {
            return Optional.empty();
        }
        String what = failed.stream()
                .map(u -> u.origin().describe() + ": " + count(u.failed()) + ", first "
                        + u.failure().orElseThrow().etcdKey() + ": "
                        + u.failure().orElseThrow().reason())
                .collect(Collectors.joining("; "));
        return Optional.of(new WorkerException(
                ErrorCode.USAGE,
                WorkerFlags.ENCRYPTION_CONFIG + " "
                        + config.map(Path::toString).orElse("") + " does not decrypt " + count(failed()) + ": " + what
                        + ". Nothing was written to " + output
                        + ". Give the EncryptionConfiguration the API server had when "
                        + "the backup was taken, with every key it could still read (an older key stays listed after a "
                        + "rotation until everything is rewritten)"));
    }

    private String warning(KeyUse use) {
        String values = count(use.leftEncrypted()) + " written as stored (first " + use.firstKey() + ")";
        if (use.origin().provider().equals("kms")) {
            return use.origin().describe() + ": " + values + ": KMS wraps each value's data key with a key only its "
                    + "plugin holds; "
                    + use.plugin()
                            .map(p -> "the configuration's plugin for it is at "
                                    + (p.endpoint().isEmpty() ? "(no endpoint)" : p.endpoint()) + " (" + p.where()
                                    + ")")
                            .orElse("the configuration has no kms provider of that name")
                    + ": read these values through a kube-apiserver that reaches that plugin";
        }
        if (KeyProvider.named(use.origin().provider()).isPresent()) {
            return use.origin().describe() + ": " + values + ": give " + WorkerFlags.ENCRYPTION_CONFIG
                    + " (the API server's EncryptionConfiguration) to decrypt them";
        }
        return "provider \"" + use.origin().provider() + "\" " + use.origin().version() + ": " + values
                + ": not a provider this worker knows";
    }

    private long sum(ToLongFunction<KeyUse> field) {
        return uses.stream().mapToLong(field).sum();
    }

    private TreeMap<String, Long> by(ToLongFunction<KeyUse> field) {
        TreeMap<String, Long> out = new TreeMap<>();
        for (KeyUse use : uses) {
            long n = field.applyAsLong(use);
            if (n > 0) {
                out.merge(use.origin().provider(), n, Long::sum);
            }
        }
        return out;
    }

    private static String count(long n) {
        return n + (n == 1 ? " value" : " values");
    }
}
