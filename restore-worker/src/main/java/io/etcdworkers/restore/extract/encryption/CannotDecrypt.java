package io.etcdworkers.restore.extract.encryption;

/**
 * A stored value that a key does not open: too short, bad padding, or a tag that does not match
 * (a wrong key, or the value was not written under this etcd key). The message is kube-apiserver's
 * reason, never key material.
 */
public final class CannotDecrypt extends Exception {
    private static final long serialVersionUID = 1L;

    CannotDecrypt(String reason) {
        super(reason, null, false, false);
    }
}
