package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcdworkers.etcd.schema.Revision;
import io.etcdworkers.testsupport.seeded.EdgeCases;
import io.etcdworkers.testsupport.seeded.SeededCase;
import io.etcdworkers.testsupport.seeded.SeededTest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The key bucket's values as the writer encodes them (byte for byte what protobuf-java writes) and
 * as the base's reader decodes them (what protobuf-java reads, unknown fields included).
 */
@Timeout(60)
class KeyValueEncodingTest {
    /** The numbers protobuf's varints break on: zero, one, minus one, the extremes, the one-byte and two-byte limits. */
    private static final long[] EDGE_NUMBERS = {0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 127L, 128L, 16_383L};

    @SeededTest(tries = 500)
    void encodesExactlyAsTheGeneratedMessage(SeededCase c) throws Exception {
        assertEncodesAsTheGeneratedMessage(bytes(c), number(c), number(c), number(c), bytes(c), number(c));
    }

    /** Every field at each edge number, key and value empty and not. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("edgeNumbers")
    void encodesEdgeNumbersExactlyAsTheGeneratedMessage(long n) throws Exception {
        for (byte[] bytes : List.of(new byte[0], new byte[] {(byte) 0xff}, new byte[300])) {
            assertEncodesAsTheGeneratedMessage(bytes, n, n, n, bytes, n);
            assertEncodesAsTheGeneratedMessage(bytes, n, 0, 0, new byte[0], 0);
            assertEncodesAsTheGeneratedMessage(new byte[0], 0, n, 0, bytes, 0);
            assertEncodesAsTheGeneratedMessage(bytes, 0, 0, n, bytes, 0);
            assertEncodesAsTheGeneratedMessage(new byte[0], 0, 0, 0, bytes, n);
        }
    }

    private static void assertEncodesAsTheGeneratedMessage(
            byte[] key, long create, long mod, long version, byte[] value, long lease) throws Exception {
        byte[] expected = KeyValue.newBuilder()
                .setKey(ByteString.copyFrom(key))
                .setCreateRevision(create)
                .setModRevision(mod)
                .setVersion(version)
                .setValue(ByteString.copyFrom(value))
                .setLease(lease)
                .build()
                .toByteArray();

        assertThat(EtcdValues.keyValue(key, create, mod, version, value, lease)).isEqualTo(expected);
    }

    @SeededTest(tries = 500)
    void decodesAsTheGeneratedMessage(SeededCase c) throws Exception {
        assertDecodesAsTheGeneratedMessage(
                bytes(c), number(c), c.longBetween(1, Long.MAX_VALUE), number(c), bytes(c), number(c), c.anyBoolean());
    }

    /** Each field at each edge number (the mod revision at the positive ones), with and without an unknown field. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("edgeNumbers")
    void decodesEdgeNumbersAsTheGeneratedMessage(long n) throws Exception {
        long mod = n > 0 ? n : 1;
        for (boolean unknownField : new boolean[] {false, true}) {
            for (byte[] bytes : List.of(new byte[0], new byte[] {(byte) 0xff}, new byte[300])) {
                assertDecodesAsTheGeneratedMessage(bytes, n, mod, n, bytes, n, unknownField);
                assertDecodesAsTheGeneratedMessage(bytes, 0, mod, 0, new byte[0], 0, unknownField);
                assertDecodesAsTheGeneratedMessage(new byte[0], n, 1, 0, bytes, 0, unknownField);
                assertDecodesAsTheGeneratedMessage(bytes, 0, 1, n, bytes, 0, unknownField);
                assertDecodesAsTheGeneratedMessage(new byte[0], 0, 1, 0, bytes, n, unknownField);
            }
        }
    }

    static LongStream edgeNumbers() {
        return LongStream.of(EDGE_NUMBERS);
    }

    private static void assertDecodesAsTheGeneratedMessage(
            byte[] key, long create, long mod, long version, byte[] value, long lease, boolean unknownField)
            throws Exception {
        KeyValue.Builder kv = KeyValue.newBuilder()
                .setKey(ByteString.copyFrom(key))
                .setCreateRevision(create)
                .setModRevision(mod)
                .setVersion(version)
                .setValue(ByteString.copyFrom(value))
                .setLease(lease);
        if (unknownField) {
            kv.setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder()
                    .addField(
                            9,
                            com.google.protobuf.UnknownFieldSet.Field.newBuilder()
                                    .addVarint(7)
                                    .addLengthDelimited(ByteString.copyFromUtf8("x"))
                                    .build())
                    .build());
        }
        byte[] encoded = kv.build().toByteArray();
        KeyValue parsed = KeyValue.parseFrom(encoded);

        BaseKeyEntry entry = BaseDatabase.entry(new Revision(mod, 3).bytes(), encoded, false);

        assertThat(entry.main()).isEqualTo(mod);
        assertThat(entry.sub()).isEqualTo(3);
        assertThat(entry.key()).isEqualTo(parsed.getKey().toByteArray());
        assertThat(entry.value()).isEqualTo(parsed.getValue().toByteArray());
        assertThat(entry.create()).isEqualTo(parsed.getCreateRevision());
        assertThat(entry.version()).isEqualTo(parsed.getVersion());
        assertThat(entry.lease()).isEqualTo(parsed.getLease());
    }

    @SeededTest(tries = 200)
    void whatTheGeneratedMessageRefusesTheReaderRefuses(SeededCase c) {
        assertRefusesWhatTheGeneratedMessageRefuses(bytes(c));
    }

    @Test
    void edgeBytesAreRefusedAsTheGeneratedMessageRefusesThem() {
        for (byte[] junk : EdgeCases.byteArrays(0, 300)) {
            assertRefusesWhatTheGeneratedMessageRefuses(junk);
        }
    }

    private static void assertRefusesWhatTheGeneratedMessageRefuses(byte[] junk) {
        boolean generated;
        try {
            KeyValue.parseFrom(junk);
            generated = true;
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            generated = false;
        }
        boolean ours;
        try {
            BaseDatabase.entry(new Revision(1, 0).bytes(), junk, false);
            ours = true;
        } catch (io.etcdworkers.bolt.BoltFormatException e) {
            // a mod revision other than the key's is refused too; only a parse failure counts here
            ours = !e.getMessage().contains("is not an mvccpb.KeyValue");
        }
        assertThat(ours).as(HexFormat.of().formatHex(junk)).isEqualTo(generated);
    }

    /** Half the time empty, else up to 300 random bytes. */
    private static byte[] bytes(SeededCase c) {
        return c.anyBoolean() ? new byte[0] : c.bytes(0, 300);
    }

    /** Half the time one of the edge numbers, else any long. */
    private static long number(SeededCase c) {
        return c.anyBoolean() ? EDGE_NUMBERS[c.random().nextInt(EDGE_NUMBERS.length)] : c.anyLong();
    }
}
