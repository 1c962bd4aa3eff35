package io.etcdworkers.restore.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.KeyValue;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The key bucket's values as the writer encodes them: byte for byte what protobuf-java writes. */
class KeyValueEncodingTest {

    @Property(tries = 500)
    void encodesExactlyAsTheGeneratedMessage(@ForAll("bytes") byte[] key, @ForAll("numbers") long create,
            @ForAll("numbers") long mod, @ForAll("numbers") long version, @ForAll("bytes") byte[] value,
            @ForAll("numbers") long lease) throws Exception {
        byte[] expected = KeyValue.newBuilder().setKey(ByteString.copyFrom(key)).setCreateRevision(create)
                .setModRevision(mod).setVersion(version).setValue(ByteString.copyFrom(value)).setLease(lease).build()
                .toByteArray();

        assertThat(EtcdSchema.keyValue(key, create, mod, version, value, lease)).isEqualTo(expected);
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
