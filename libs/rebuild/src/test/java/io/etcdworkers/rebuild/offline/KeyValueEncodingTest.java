package io.etcdworkers.rebuild.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import io.etcdworkers.etcd.schema.Revision;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The key bucket's values as the writer encodes them (byte for byte what protobuf-java writes) and
 * as the base's reader decodes them (what protobuf-java reads, unknown fields included).
 */
class KeyValueEncodingTest {

    @Property(tries = 500)
    void encodesExactlyAsTheGeneratedMessage(@ForAll("bytes") byte[] key, @ForAll("numbers") long create,
            @ForAll("numbers") long mod, @ForAll("numbers") long version, @ForAll("bytes") byte[] value,
            @ForAll("numbers") long lease) throws Exception {
        byte[] expected = KeyValue.newBuilder().setKey(ByteString.copyFrom(key)).setCreateRevision(create)
                .setModRevision(mod).setVersion(version).setValue(ByteString.copyFrom(value)).setLease(lease).build()
                .toByteArray();

        assertThat(EtcdValues.keyValue(key, create, mod, version, value, lease)).isEqualTo(expected);
    }

    @Property(tries = 500)
    void decodesAsTheGeneratedMessage(@ForAll("bytes") byte[] key, @ForAll("numbers") long create,
            @ForAll("positive") long mod, @ForAll("numbers") long version, @ForAll("bytes") byte[] value,
            @ForAll("numbers") long lease, @ForAll boolean unknownField) throws Exception {
        KeyValue.Builder kv = KeyValue.newBuilder().setKey(ByteString.copyFrom(key)).setCreateRevision(create)
                .setModRevision(mod).setVersion(version).setValue(ByteString.copyFrom(value)).setLease(lease);
        if (unknownField) {
            kv.setUnknownFields(com.google.protobuf.UnknownFieldSet.newBuilder().addField(9,
                    com.google.protobuf.UnknownFieldSet.Field.newBuilder().addVarint(7).addLengthDelimited(
                            ByteString.copyFromUtf8("x")).build()).build());
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

    @Property(tries = 200)
    void whatTheGeneratedMessageRefusesTheReaderRefuses(@ForAll("bytes") byte[] junk) {
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
        assertThat(ours).isEqualTo(generated);
    }

    @Provide
    Arbitrary<Long> positive() {
        return Arbitraries.longs().between(1, Long.MAX_VALUE);
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return Arbitraries.oneOf(Arbitraries.just(new byte[0]), Arbitraries.bytes().array(byte[].class).ofMaxSize(300));
    }

    @Provide
    Arbitrary<Long> numbers() {
        return Arbitraries.oneOf(Arbitraries.of(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 127L, 128L, 16_383L),
                Arbitraries.longs());
    }
}
