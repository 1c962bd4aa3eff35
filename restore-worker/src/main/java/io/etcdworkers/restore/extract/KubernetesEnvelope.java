package io.etcdworkers.restore.extract;

import com.google.protobuf.CodedInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * The type of a value the Kubernetes API server stored as protobuf: the 4 bytes {@code k8s\0},
 * then a {@code runtime.Unknown} message whose field 1 is the {@code TypeMeta} ({@code apiVersion}
 * field 1, {@code kind} field 2) and field 2 the object's own bytes. Only the type is read; the
 * object stays as stored (turning it into YAML needs the API server's schemes, see
 * docs/operations.md).
 */
public final class KubernetesEnvelope {
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    /** Field 1 and field 2, length-delimited (wire type 2): {@code (field << 3) | 2}. */
    private static final int FIELD_1 = (1 << 3) | 2;

    private static final int FIELD_2 = (2 << 3) | 2;

    /** An object's {@code apiVersion} and {@code kind}, either of which may be empty. */
    public record TypeMeta(String apiVersion, String kind) {}

    private KubernetesEnvelope() {}

    public static boolean isProtobuf(byte[] value) {
        return value.length >= MAGIC.length && Arrays.equals(value, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    /** The type in the envelope; empty when the value is not one or its envelope does not parse. */
    public static Optional<TypeMeta> typeOf(byte[] value) {
        if (!isProtobuf(value)) {
            return Optional.empty();
        }
        try {
            CodedInputStream unknown = CodedInputStream.newInstance(value, MAGIC.length, value.length - MAGIC.length);
            int tag;
            while ((tag = unknown.readTag()) != 0) {
                if (tag == FIELD_1) {
                    return Optional.of(typeMeta(unknown.readBytes().newCodedInput()));
                }
                unknown.skipField(tag);
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static TypeMeta typeMeta(CodedInputStream in) throws IOException {
        String apiVersion = "";
        String kind = "";
        int tag;
        while ((tag = in.readTag()) != 0) {
            if (tag == FIELD_1) {
                apiVersion = in.readStringRequireUtf8();
            } else if (tag == FIELD_2) {
                kind = in.readStringRequireUtf8();
            } else {
                in.skipField(tag);
            }
        }
        return new TypeMeta(apiVersion, kind);
    }
}
