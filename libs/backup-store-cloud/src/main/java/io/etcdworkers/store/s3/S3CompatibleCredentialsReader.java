package io.etcdworkers.store.s3;

import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerEnv;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.store.CredentialSecret;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the credentials of OSS, ECS and OCS where etcdbrctl reads them (its
 * {@code oss_snapstore.go}, {@code ecs_s3_snapstore.go}, {@code ocs_s3_snapstore.go}) and etcd-druid
 * puts them:
 * <ul>
 *   <li>OSS: {@value WorkerEnv#ALICLOUD_APPLICATION_CREDENTIALS_JSON} (a JSON file), else
 *       {@value WorkerEnv#ALICLOUD_APPLICATION_CREDENTIALS} (the mounted Secret); keys
 *       {@code accessKeyID}, {@code accessKeySecret}, {@code storageEndpoint}, all required
 *       ({@code bucketName} is read by neither: the container is the flag);</li>
 *   <li>OCS: {@value WorkerEnv#OPENSHIFT_APPLICATION_CREDENTIALS_JSON}, else
 *       {@value WorkerEnv#OPENSHIFT_APPLICATION_CREDENTIALS}; keys {@code endpoint},
 *       {@code region}, {@code accessKeyID}, {@code secretAccessKey} (required),
 *       {@code disableSSL}, {@code insecureSkipVerify};</li>
 *   <li>ECS: no file; the variables {@value WorkerEnv#ECS_ENDPOINT},
 *       {@value WorkerEnv#ECS_ACCESS_KEY_ID}, {@value WorkerEnv#ECS_SECRET_ACCESS_KEY} (required;
 *       etcd-druid sets them from the Secret's {@code endpoint}, {@code accessKeyID},
 *       {@code secretAccessKey}) and {@value WorkerEnv#ECS_DISABLE_SSL},
 *       {@value WorkerEnv#ECS_INSECURE_SKIP_VERIFY}.</li>
 * </ul>
 * Differences from etcdbrctl: those of {@link CredentialSecret}; the JSON forms are checked for
 * the required keys too (etcdbrctl checks only the directory form and fails at the first request
 * otherwise); an ECS boolean that is not one is taken as {@code false}, as etcdbrctl does, but
 * with a WARN. No provider has an ambient identity: without its credentials the worker exits 2
 * saying where it looked.
 */
public final class S3CompatibleCredentialsReader {
    private static final Logger LOG = LoggerFactory.getLogger(S3CompatibleCredentialsReader.class);

    private final Map<String, String> env;

    public S3CompatibleCredentialsReader(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    public S3CompatibleCredentials oss() {
        CredentialSecret s = secret(
                "OSS",
                WorkerEnv.ALICLOUD_APPLICATION_CREDENTIALS_JSON,
                WorkerEnv.ALICLOUD_APPLICATION_CREDENTIALS,
                "accessKeyID, accessKeySecret and storageEndpoint");
        Optional<String> id = s.text("accessKeyID");
        Optional<String> key = s.text("accessKeySecret");
        Optional<String> endpoint = s.text("storageEndpoint");
        requireAll(s, List.of("accessKeyID", "accessKeySecret", "storageEndpoint"), id, key, endpoint);
        return new S3CompatibleCredentials(
                "OSS", s.source().toString(), endpoint.get(), Optional.empty(), id.get(), key.get(), false, false);
    }

    public S3CompatibleCredentials ocs() {
        CredentialSecret s = secret(
                "OCS",
                WorkerEnv.OPENSHIFT_APPLICATION_CREDENTIALS_JSON,
                WorkerEnv.OPENSHIFT_APPLICATION_CREDENTIALS,
                "endpoint, region, accessKeyID and secretAccessKey");
        Optional<String> endpoint = s.text("endpoint");
        Optional<String> region = s.text("region");
        Optional<String> id = s.text("accessKeyID");
        Optional<String> key = s.text("secretAccessKey");
        requireAll(s, List.of("endpoint", "region", "accessKeyID", "secretAccessKey"), endpoint, region, id, key);
        return new S3CompatibleCredentials(
                "OCS",
                s.source().toString(),
                endpoint.get(),
                region,
                id.get(),
                key.get(),
                s.bool("disableSSL").orElse(false),
                s.bool("insecureSkipVerify").orElse(false));
    }

    public S3CompatibleCredentials ecs() {
        List<String> required =
                List.of(WorkerEnv.ECS_ENDPOINT, WorkerEnv.ECS_ACCESS_KEY_ID, WorkerEnv.ECS_SECRET_ACCESS_KEY);
        List<String> missing =
                required.stream().filter(name -> value(name).isEmpty()).toList();
        if (!missing.isEmpty()) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "no ECS credentials: set " + String.join(", ", required)
                            + " (etcd-druid sets them from the backup Secret's endpoint, accessKeyID and secretAccessKey); "
                            + "missing: " + String.join(", ", missing));
        }
        return new S3CompatibleCredentials(
                "ECS",
                "the environment (" + String.join(", ", required) + ")",
                value(WorkerEnv.ECS_ENDPOINT).get(),
                Optional.empty(),
                value(WorkerEnv.ECS_ACCESS_KEY_ID).get(),
                value(WorkerEnv.ECS_SECRET_ACCESS_KEY).get(),
                ecsBool(WorkerEnv.ECS_DISABLE_SSL),
                ecsBool(WorkerEnv.ECS_INSECURE_SKIP_VERIFY));
    }

    private CredentialSecret secret(String provider, String jsonVariable, String dirVariable, String keys) {
        return CredentialSecret.fromEnv(provider, env, jsonVariable, dirVariable)
                .orElseThrow(() -> new WorkerException(
                        ErrorCode.USAGE,
                        "no " + provider + " credentials found; "
                                + "looked in the file named by " + jsonVariable + ", then the directory named by "
                                + dirVariable
                                + " (etcd-druid mounts the backup Secret there: a *.json file, or the files " + keys
                                + ")"));
    }

    @SafeVarargs
    private static void requireAll(CredentialSecret s, List<String> keys, Optional<String>... values) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            if (values[i].isEmpty()) {
                missing.add(keys.get(i));
            }
        }
        if (!missing.isEmpty()) {
            throw s.invalid("must set " + String.join(", ", keys) + "; missing: " + String.join(", ", missing));
        }
    }

    private boolean ecsBool(String name) {
        return value(name)
                .map(v -> CredentialSecret.goBool(v).orElseGet(() -> {
                    LOG.warn("{} is not true or false; taking false, as etcdbrctl does", name);
                    return false;
                }))
                .orElse(false);
    }

    private Optional<String> value(String name) {
        return Optional.ofNullable(env.get(name)).map(String::strip).filter(v -> !v.isEmpty());
    }
}
