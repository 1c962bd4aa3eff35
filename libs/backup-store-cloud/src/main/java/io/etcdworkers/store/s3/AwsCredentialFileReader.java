package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.store.CredentialSecret;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads etcd-backup-restore's S3 credentials, as etcd-druid mounts them from the backup Secret:
 * a JSON file ({@code AWS_APPLICATION_CREDENTIALS_JSON}), or a directory
 * ({@code AWS_APPLICATION_CREDENTIALS}) holding either a {@code *.json} file or one file per key
 * (both forms through {@link CredentialSecret}).
 *
 * <p>Differences from theirs, all lenient or earlier: see {@link CredentialSecret}; the JSON form
 * is validated like the directory form. Errors are {@link ErrorCode#USAGE} and name the file and
 * key, never a value.
 */
public final class AwsCredentialFileReader {
    static final String PROVIDER = "S3";

    private AwsCredentialFileReader() {}

    /** Reads the JSON file named by {@code AWS_APPLICATION_CREDENTIALS_JSON}. */
    public static AwsCredentialFile readJson(Path file) {
        return read(CredentialSecret.readJson(PROVIDER, file));
    }

    /**
     * Reads the directory named by {@code AWS_APPLICATION_CREDENTIALS}: its {@code *.json} file
     * when there is one (the first by name), else one file per key.
     */
    public static AwsCredentialFile readDirectory(Path dir) {
        return read(CredentialSecret.readDirectory(PROVIDER, dir));
    }

    /** Either form; the web identity token is the {@code token} file of a directory, or {@code tokenPath} of a JSON file. */
    static AwsCredentialFile read(CredentialSecret s) {
        Optional<Path> token =
                s.isDirectory() ? s.file("token") : s.text("tokenPath").map(Path::of);
        return validate(
                s,
                new AwsCredentialFile(
                        s.source(),
                        s.text("accessKeyID"),
                        s.text("secretAccessKey"),
                        s.text("region"),
                        s.text("endpoint"),
                        s.bool("s3ForcePathStyle"),
                        s.bool("insecureSkipVerify"),
                        s.text("trustedCaCert"),
                        s.text("sseCustomerKey"),
                        s.text("sseCustomerAlgorithm"),
                        s.text("roleARN"),
                        token,
                        s.text("requestChecksumCalculation"),
                        s.text("responseChecksumValidation")));
    }

    private static AwsCredentialFile validate(CredentialSecret s, AwsCredentialFile f) {
        boolean staticKeys = f.accessKeyId().isPresent() && f.secretAccessKey().isPresent();
        boolean webIdentity = f.roleArn().isPresent() && f.tokenPath().isPresent();
        if (!staticKeys && !webIdentity) {
            throw s.invalid("must set either accessKeyID and secretAccessKey, or roleARN and token");
        }
        if (f.sseCustomerKey().isPresent() != f.sseCustomerAlgorithm().isPresent()) {
            throw s.invalid("must set both sseCustomerKey and sseCustomerAlgorithm, or neither");
        }
        checksumMode(s, f.requestChecksumCalculation(), "requestChecksumCalculation");
        checksumMode(s, f.responseChecksumValidation(), "responseChecksumValidation");
        return f;
    }

    private static void checksumMode(CredentialSecret s, Optional<String> value, String key) {
        value.map(v -> v.toLowerCase(Locale.ROOT))
                .filter(v -> !v.equals("when_supported") && !v.equals("when_required"))
                .ifPresent(v -> {
                    throw s.invalid(key + " must be when_supported or when_required");
                });
    }
}
