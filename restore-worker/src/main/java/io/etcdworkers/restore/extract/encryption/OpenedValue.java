package io.etcdworkers.restore.extract.encryption;

import java.util.Optional;

/**
 * A stored value as the extract writes it: the plaintext of a value it decrypted, else the value
 * as stored.
 *
 * @param value the bytes to write
 * @param encryption how the value was stored encrypted; empty when it was not ({@code identity})
 * @param decrypted whether {@code value} is the decrypted plaintext
 */
public record OpenedValue(byte[] value, Optional<StoredPrefix> encryption, boolean decrypted) {
    static OpenedValue plain(byte[] stored) {
        return new OpenedValue(stored, Optional.empty(), false);
    }

    static OpenedValue decrypted(byte[] plaintext, StoredPrefix origin) {
        return new OpenedValue(plaintext, Optional.of(origin), true);
    }

    static OpenedValue asStored(byte[] stored, StoredPrefix origin) {
        return new OpenedValue(stored, Optional.of(origin), false);
    }
}
