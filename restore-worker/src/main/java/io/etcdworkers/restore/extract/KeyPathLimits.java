package io.etcdworkers.restore.extract;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdworkers.contract.ErrorCode;
import io.etcdworkers.contract.WorkerException;
import io.etcdworkers.files.OwnerOnly;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * The two ways a key's files cannot be written that are the keys' doing, not the disk's, and the
 * same on every run: a path longer than Linux allows ({@value #PATH_MAX} bytes in all, {@value
 * #NAME_MAX} per name), and a key whose directory is another key's file ({@code /c/a} writes
 * {@code c/a.value}; {@code /c/a.value/x} needs a directory {@code c/a.value}). Both end the
 * extract with exit 2 naming the key(s), before the key's files are written: such keys can be
 * extracted with {@code --output-format=etcd}.
 */
final class KeyPathLimits {
    /** Linux's PATH_MAX, its terminating NUL included. */
    static final int PATH_MAX = 4096;

    static final int NAME_MAX = 255;
    /** The longest suffix a key's file gets. */
    private static final String LONGEST_SUFFIX = ".meta.json";

    private static final List<String> SUFFIXES = List.of(".meta.json", ".value", ".json");
    private static final int SHOWN_KEY_CHARS = 200;
    private static final String ADVICE =
            ": extract with --output-format=etcd (a data dir keeps every key), " + "or a narrower --prefix";

    private KeyPathLimits() {}

    /** Refuses {@code key} when one of its files' absolute paths, or a name in it, is too long. */
    static void checkLength(Path base, byte[] key) {
        Path longest = base.resolveSibling(base.getFileName() + LONGEST_SUFFIX).toAbsolutePath();
        int bytes = longest.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes + 1 > PATH_MAX) {
            throw new WorkerException(
                    ErrorCode.USAGE,
                    String.format(
                            "the key %s needs a path of %d bytes, longer than " + "the %d the system allows%s",
                            show(key), bytes, PATH_MAX - 1, ADVICE));
        }
        for (Path name : longest) {
            if (name.toString().getBytes(StandardCharsets.UTF_8).length > NAME_MAX) {
                throw new WorkerException(
                        ErrorCode.USAGE,
                        String.format(
                                "the key %s needs a file name longer than " + "the %d bytes the system allows: %s%s",
                                show(key), NAME_MAX, name, ADVICE));
            }
        }
    }

    /** Creates {@code base}'s directory under {@code dir}, refusing when a file of another key stands in its way. */
    static void createParent(Path dir, Path base, byte[] key) throws IOException {
        Path parent = base.getParent();
        try {
            OwnerOnly.createDirectories(parent);
        } catch (FileSystemException e) {
            Path blocker = firstFileOnTheWay(dir, parent);
            if (blocker == null) {
                throw e;
            }
            throw new WorkerException(
                    ErrorCode.USAGE,
                    String.format(
                            "the key %s needs a directory %s where %s wrote " + "a file%s",
                            show(key), dir.relativize(blocker), owner(blocker), ADVICE),
                    e);
        }
    }

    private static Path firstFileOnTheWay(Path dir, Path parent) {
        Path at = dir;
        for (Path name : dir.relativize(parent)) {
            at = at.resolve(name);
            if (Files.exists(at, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                return at;
            }
        }
        return null;
    }

    /** The key that wrote {@code file}, as its {@code .meta.json} says, or the file itself. */
    private static String owner(Path file) {
        String name = file.getFileName().toString();
        for (String suffix : SUFFIXES) {
            if (name.endsWith(suffix)) {
                Path meta = file.resolveSibling(name.substring(0, name.length() - suffix.length()) + ".meta.json");
                try {
                    byte[] other = Base64.getDecoder()
                            .decode(new ObjectMapper()
                                    .readTree(meta.toFile())
                                    .get("keyBase64")
                                    .asText());
                    return "the key " + show(other);
                } catch (IOException | RuntimeException e) {
                    break;
                }
            }
        }
        return "another key";
    }

    /** The key as text (its first {@value #SHOWN_KEY_CHARS} characters), or in base64 when it is not UTF-8. */
    static String show(byte[] key) {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(key))
                    .toString();
        } catch (CharacterCodingException e) {
            text = "base64:" + Base64.getEncoder().encodeToString(key);
        }
        return text.length() <= SHOWN_KEY_CHARS
                ? text
                : text.substring(0, SHOWN_KEY_CHARS) + "... (" + key.length + " bytes)";
    }
}
