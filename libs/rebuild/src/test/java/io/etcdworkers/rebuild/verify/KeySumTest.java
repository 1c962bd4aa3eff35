package io.etcdworkers.rebuild.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeySumTest {
    private record Key(String key, String value, long create, long mod, long version, long lease) {}

    private static KeySum sum(List<Key> keys) {
        KeyHasher hasher = new KeyHasher();
        KeySum sum = new KeySum();
        for (Key k : keys) {
            hasher.addTo(
                    sum,
                    k.key().getBytes(StandardCharsets.UTF_8),
                    k.value().getBytes(StandardCharsets.UTF_8),
                    k.create(),
                    k.mod(),
                    k.version(),
                    k.lease());
        }
        return sum;
    }

    private static List<Key> keys(int n) {
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(new Key("/registry/k" + i, "v" + i, 2 + i, 10 + i, 1 + i % 3, i % 5 == 0 ? 77 : 0));
        }
        return keys;
    }

    @Test
    void theSameKeysInAnyOrderSumTheSame() {
        List<Key> keys = keys(1000);
        List<Key> shuffled = new ArrayList<>(keys);
        Collections.shuffle(shuffled, new Random(7));
        assertThat(sum(shuffled)).isEqualTo(sum(keys));
        assertThat(sum(keys).keys()).isEqualTo(1000);
    }

    @Test
    void aKeyMissingTwiceOrChangedInAnyFieldChangesTheSum() {
        List<Key> keys = keys(100);
        KeySum original = sum(keys);
        Key k = keys.get(40);
        List<List<Key>> variants = new ArrayList<>();
        variants.add(new ArrayList<>(keys.subList(1, 100)));
        List<Key> twice = new ArrayList<>(keys);
        twice.add(k);
        variants.add(twice);
        for (Key changed : List.of(
                new Key(k.key() + "x", k.value(), k.create(), k.mod(), k.version(), k.lease()),
                new Key(k.key(), k.value() + "x", k.create(), k.mod(), k.version(), k.lease()),
                new Key(k.key(), k.value(), k.create() + 1, k.mod(), k.version(), k.lease()),
                new Key(k.key(), k.value(), k.create(), k.mod() + 1, k.version(), k.lease()),
                new Key(k.key(), k.value(), k.create(), k.mod(), k.version() + 1, k.lease()),
                new Key(k.key(), k.value(), k.create(), k.mod(), k.version(), k.lease() + 1),
                // the same bytes split differently between key and value
                new Key(k.key() + "v", k.value().substring(1), k.create(), k.mod(), k.version(), k.lease()))) {
            List<Key> v = new ArrayList<>(keys);
            v.set(40, changed);
            variants.add(v);
        }
        for (List<Key> v : variants) {
            assertThat(sum(v)).isNotEqualTo(original);
        }
    }

    @Test
    void byteStringsAndArraysHashAlikeAndSumsAdd() {
        KeyHasher hasher = new KeyHasher();
        KeySum arrays = new KeySum();
        KeySum strings = new KeySum();
        hasher.addTo(arrays, new byte[] {1, 2}, new byte[] {3}, 4, 5, 6, 7);
        hasher.addTo(strings, ByteString.copyFrom(new byte[] {1, 2}), ByteString.copyFrom(new byte[] {3}), 4, 5, 6, 7);
        assertThat(strings).isEqualTo(arrays);

        List<Key> keys = keys(10);
        KeySum halves = sum(keys.subList(0, 4));
        halves.add(sum(keys.subList(4, 10)));
        assertThat(halves).isEqualTo(sum(keys));
    }
}
