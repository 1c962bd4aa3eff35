package io.etcdworkers.store.s3;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The content of an etcd-backup-restore S3 credentials Secret, as read by
 * {@link AwsCredentialFileReader}: either static keys or a web identity (role ARN plus token
 * file), and optional endpoint, TLS, SSE-C and checksum settings.
 *
 * @param source the file or directory read, for messages
 * @param accessKeyId {@code accessKeyID}
 * @param secretAccessKey {@code secretAccessKey} (secret)
 * @param region {@code region}
 * @param endpoint {@code endpoint}; the endpoint override flag wins over it
 * @param s3ForcePathStyle {@code s3ForcePathStyle}
 * @param insecureSkipVerify {@code insecureSkipVerify}
 * @param trustedCaCert {@code trustedCaCert}, PEM
 * @param sseCustomerKey {@code sseCustomerKey} (secret)
 * @param sseCustomerAlgorithm {@code sseCustomerAlgorithm}
 * @param roleArn {@code roleARN}
 * @param tokenPath the {@code token} file of a directory, or {@code tokenPath} of a JSON file
 * @param requestChecksumCalculation {@code requestChecksumCalculation}: when_supported/when_required
 * @param responseChecksumValidation {@code responseChecksumValidation}: when_supported/when_required
 */
public record AwsCredentialFile(
        Path source,
        Optional<String> accessKeyId,
        Optional<String> secretAccessKey,
        Optional<String> region,
        Optional<String> endpoint,
        Optional<Boolean> s3ForcePathStyle,
        Optional<Boolean> insecureSkipVerify,
        Optional<String> trustedCaCert,
        Optional<String> sseCustomerKey,
        Optional<String> sseCustomerAlgorithm,
        Optional<String> roleArn,
        Optional<Path> tokenPath,
        Optional<String> requestChecksumCalculation,
        Optional<String> responseChecksumValidation) {

    public AwsCredentialFile {
        Objects.requireNonNull(source, "source");
        List.of(
                        accessKeyId,
                        secretAccessKey,
                        region,
                        endpoint,
                        s3ForcePathStyle,
                        insecureSkipVerify,
                        trustedCaCert,
                        sseCustomerKey,
                        sseCustomerAlgorithm,
                        roleArn,
                        tokenPath,
                        requestChecksumCalculation,
                        responseChecksumValidation)
                .forEach(o -> Objects.requireNonNull(o, "optional fields must not be null"));
    }

    /** Whether it names a web identity (role ARN and token file) rather than static keys. */
    public boolean isWebIdentity() {
        return accessKeyId.isEmpty() && roleArn.isPresent() && tokenPath.isPresent();
    }

    /** Names the keys present and the harmless values; never a secret. */
    @Override
    public String toString() {
        List<String> present = new ArrayList<>();
        accessKeyId.ifPresent(v -> present.add("accessKeyID"));
        secretAccessKey.ifPresent(v -> present.add("secretAccessKey=***"));
        region.ifPresent(v -> present.add("region=" + v));
        endpoint.ifPresent(v -> present.add("endpoint=" + v));
        s3ForcePathStyle.ifPresent(v -> present.add("s3ForcePathStyle=" + v));
        insecureSkipVerify.ifPresent(v -> present.add("insecureSkipVerify=" + v));
        trustedCaCert.ifPresent(v -> present.add("trustedCaCert"));
        sseCustomerKey.ifPresent(v -> present.add("sseCustomerKey=***"));
        sseCustomerAlgorithm.ifPresent(v -> present.add("sseCustomerAlgorithm=" + v));
        roleArn.ifPresent(v -> present.add("roleARN=" + v));
        tokenPath.ifPresent(v -> present.add("token=" + v));
        requestChecksumCalculation.ifPresent(v -> present.add("requestChecksumCalculation=" + v));
        responseChecksumValidation.ifPresent(v -> present.add("responseChecksumValidation=" + v));
        return "AwsCredentialFile[" + source + ": " + String.join(", ", present) + "]";
    }
}
