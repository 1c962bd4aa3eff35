package io.etcdworkers.restore.extract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.etcd.EtcdGrpcClient;
import io.etcdworkers.files.OwnerOnly;
import io.etcdworkers.rebuild.engine.KeyPrefix;
import io.etcdworkers.rebuild.verify.KeyBounds;
import io.etcdworkers.rebuild.verify.KeyBounds.KeyRange;
import io.etcdworkers.rebuild.verify.RangeWalk;
import io.etcdworkers.restore.extract.encryption.AtRestDecryption;
import io.etcdworkers.restore.extract.encryption.OpenedValue;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Writes the keys under a prefix, as a verified etcd serves them at one revision, one set of files
 * per key (see {@link KeyPaths} for the names):
 * <ul>
 *   <li>{@code <name>.value}: the value's bytes exactly as stored, or decrypted when it was
 *       encrypted at rest and {@link AtRestDecryption} has its key;</li>
 *   <li>{@code <name>.meta.json}: the key, its create and mod revision, version, lease, the
 *       value's size and encoding ({@code json}, {@code kubernetes-protobuf} with the envelope's
 *       {@code apiVersion} and {@code kind}, {@code encrypted} when written as stored encrypted, or
 *       {@code bytes}), and for a value stored encrypted its {@code encryption};</li>
 *   <li>{@code <name>.json}: the value pretty-printed, when it is a JSON object or array;</li>
 * </ul>
 * and {@code index.jsonl}, one line per key ({@code key}, {@code path} without the suffixes,
 * {@code encoding}, {@code kind}), in key order.
 */
final class KeyFiles {
    private static final ObjectMapper JSON =
            new ObjectMapper().enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** What was written: keys by encoding, and Kubernetes objects by kind. */
    record Written(long keys, long valueBytes, TreeMap<String, Long> encodings, TreeMap<String, Long> kinds) {}

    private KeyFiles() {}

    /** The keys of {@code prefix}, read over the ranges {@code bounds} makes (the verification's). */
    static Written write(
            EtcdGrpcClient client,
            KeyPrefix prefix,
            long revision,
            KeyBounds bounds,
            Path dir,
            AtRestDecryption decryption)
            throws IOException {
        OwnerOnly.createDirectories(dir);
        TreeMap<String, Long> encodings = new TreeMap<>();
        TreeMap<String, Long> kinds = new TreeMap<>();
        ByteString from = prefix.isAll() ? KeyRange.FIRST_KEY : ByteString.copyFrom(prefix.bytes());
        ByteString end = ByteString.copyFrom(prefix.rangeEnd());
        long[] totals = new long[2];
        try (BufferedWriter index = OwnerOnly.newBufferedWriter(dir.resolve("index.jsonl"))) {
            RangeWalk.walk(client, revision, bounds, from, end, kv -> {
                OpenedValue opened =
                        decryption.open(kv.getKey().toByteArray(), kv.getValue().toByteArray());
                ObjectNode meta = writeKey(dir, kv, opened, revision);
                index.write(JSON.writeValueAsString(JSON.createObjectNode()
                        .put("key", meta.get("key").asText())
                        .put("path", meta.get("path").asText())
                        .put("encoding", meta.get("encoding").asText())
                        .put("kind", meta.path("kind").asText(""))));
                index.newLine();
                encodings.merge(meta.get("encoding").asText(), 1L, Long::sum);
                if (meta.has("kind")) {
                    kinds.merge(meta.get("kind").asText(), 1L, Long::sum);
                }
                totals[0]++;
                totals[1] += opened.value().length;
            });
        }
        long keys = totals[0];
        long bytes = totals[1];
        return new Written(keys, bytes, encodings, kinds);
    }

    private static ObjectNode writeKey(Path dir, KeyValue kv, OpenedValue opened, long revision) throws IOException {
        byte[] key = kv.getKey().toByteArray();
        byte[] value = opened.value();
        String path = KeyPaths.of(key);
        Path base = dir.resolve(path);
        KeyPathLimits.checkLength(base, key);
        KeyPathLimits.createParent(dir, base, key);
        write(sibling(base, ".value"), value);
        ObjectNode meta = JSON.createObjectNode();
        meta.put("key", utf8(key).orElse(""));
        meta.put("keyBase64", Base64.getEncoder().encodeToString(key));
        meta.put("path", path);
        meta.put("valueFile", path + ".value");
        meta.put("revision", revision);
        meta.put("createRevision", kv.getCreateRevision());
        meta.put("modRevision", kv.getModRevision());
        meta.put("version", kv.getVersion());
        meta.put("lease", kv.getLease());
        meta.put("valueBytes", value.length);
        opened.encryption()
                .ifPresent(e -> meta.putObject("encryption")
                        .put("provider", e.provider())
                        .put("version", e.version())
                        .put("keyName", e.name())
                        .put("decrypted", opened.decrypted())
                        .put("storedBytes", kv.getValue().size()));
        Optional<JsonNode> json = json(value);
        if (opened.encryption().isPresent() && !opened.decrypted()) {
            meta.put("encoding", "encrypted");
        } else if (json.isPresent()) {
            meta.put("encoding", "json");
            write(sibling(base, ".json"), PRETTY.writeValueAsBytes(json.get()));
        } else if (KubernetesEnvelope.isProtobuf(value)) {
            meta.put("encoding", "kubernetes-protobuf");
            KubernetesEnvelope.typeOf(value)
                    .ifPresent(t -> meta.put("apiVersion", t.apiVersion()).put("kind", t.kind()));
        } else {
            meta.put("encoding", "bytes");
        }
        write(sibling(base, ".meta.json"), PRETTY.writeValueAsBytes(meta));
        return meta;
    }

    /**
     * A new file, never an overwrite: two keys whose names map to one file (a key {@code /a/b.meta}
     * holding JSON beside a key {@code /a/b}) fail the extract instead of losing one silently.
     */
    private static void write(Path file, byte[] bytes) throws IOException {
        try {
            OwnerOnly.write(file, bytes, StandardOpenOption.CREATE_NEW);
        } catch (FileAlreadyExistsException e) {
            // not the disk's fault, and the same on every run: a usage error with what to do instead
            throw new WorkerException(
                    ErrorCode.USAGE,
                    "two keys map to the file " + file + ": extract a narrower "
                            + "--prefix, or use --output-format=etcd",
                    e);
        }
    }

    private static Path sibling(Path base, String suffix) {
        return base.resolveSibling(base.getFileName() + suffix);
    }

    /** A JSON object or array (what the API server stores as JSON); anything else is not taken for JSON. */
    private static Optional<JsonNode> json(byte[] value) {
        int i = 0;
        while (i < value.length && Character.isWhitespace(value[i])) {
            i++;
        }
        if (i == value.length || value[i] != '{' && value[i] != '[') {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readTree(value));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> utf8(byte[] key) {
        try {
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(key))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
