#!/usr/bin/python3
"""Writes the encryption-at-rest vectors: values as kube-apiserver stores them, encrypted by other
implementations than the worker's (the openssl CLI for aescbc, Python's cryptography for aesgcm,
PyNaCl/libsodium for secretbox), with the EncryptionConfiguration that holds their keys.

Run with Debian's python3 (python3-cryptography, python3-nacl) and openssl on PATH:
    /usr/bin/python3 make.py
Keys, IVs and nonces are new on every run; the plaintexts are the same. Writes, next to this file:
encryption-configuration.yaml, encryption-configuration.json (the same configuration as JSON) and
vectors.json (the tools' versions and one entry per value).
"""
import base64
import json
import os
import platform
import subprocess
import sys

import cryptography
import nacl
import nacl.bindings
import nacl.secret
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number, payload):
    """A length-delimited protobuf field."""
    return varint((number << 3) | 2) + varint(len(payload)) + payload


def envelope(kind, name, namespace, data):
    """Kubernetes' protobuf storage envelope: k8s\\0 + runtime.Unknown{TypeMeta, raw object}."""
    meta = field(1, name.encode()) + field(3, namespace.encode())
    if kind == "Secret":
        obj = field(1, meta) + b"".join(field(2, field(1, k.encode()) + field(2, v)) for k, v in data)
        obj += field(3, b"Opaque")
    else:  # ConfigMap: data is map<string, string>
        obj = field(1, meta) + b"".join(field(2, field(1, k.encode()) + field(2, v)) for k, v in data)
    type_meta = field(1, b"v1") + field(2, kind.encode())
    return b"k8s\x00" + field(1, type_meta) + field(2, obj) + field(3, b"") + field(4, b"")


def sized(kind, name, namespace, total):
    """An envelope of exactly `total` bytes: one data item grown to fit, a second short one when the
    lengths' varints skip `total`."""
    base = len(envelope(kind, name, namespace, [("payload", b"")]))
    for extra in range(0, 4):
        items = [("p", b"x" * extra)] if extra else []
        for n in range(max(0, total - base - 16), total - base + 1):
            payload = bytes((i * 7 + 3) % 256 for i in range(n))
            value = envelope(kind, name, namespace, [("payload", payload)] + items)
            if len(value) == total:
                return value
    raise ValueError(f"no envelope of {total} bytes")


def openssl_cbc(key, iv, plaintext):
    bits = len(key) * 8
    return subprocess.run(["openssl", "enc", f"-aes-{bits}-cbc", "-K", key.hex(), "-iv", iv.hex()],
                          input=plaintext, capture_output=True, check=True).stdout


def aescbc(key, plaintext, etcd_key):
    iv = os.urandom(16)
    return iv + openssl_cbc(key, iv, plaintext)


def aesgcm(key, plaintext, etcd_key):
    nonce = os.urandom(12)
    # kube-apiserver authenticates the etcd key: value.Context's AuthenticatedData()
    return nonce + AESGCM(key).encrypt(nonce, plaintext, etcd_key.encode())


def secretbox(key, plaintext, etcd_key):
    nonce = os.urandom(24)
    # PyNaCl's SecretBox.encrypt: nonce + crypto_secretbox (tag, then ciphertext), as Go's secretbox.Seal
    return bytes(nacl.secret.SecretBox(key).encrypt(plaintext, nonce))


CIPHERS = {"aescbc": aescbc, "aesgcm": aesgcm, "secretbox": secretbox}

# (resources, [(provider, key name, key size or KMS settings)]) in the order kube-apiserver reads them
CONFIG = [
    (["secrets"], [
        ("aescbc", [("key-2026", 32), ("key-2025", 16)]),
        ("secretbox", [("sb-1", 32)]),
        ("aesgcm", [("gcm-256", 32), ("gcm-128", 16)]),
        ("kms", {"apiVersion": "v2", "name": "gardener-kms", "endpoint": "unix:///var/run/kms/kms.sock",
                 "timeout": "3s"}),
        ("identity", None),
    ]),
    (["configmaps", "*.apps"], [
        ("aescbc", [("key-192", 24)]),
        ("aesgcm", [("gcm-192", 24)]),
        ("kms", {"name": "legacy-kms", "endpoint": "unix:///var/run/kms/legacy.sock", "cachesize": 100}),
        ("identity", None),
    ]),
]

# plaintext sizes: empty, one short of, at and one past a multiple of the AES block (16), and large
SIZES = {"key-2026": [0, 111, 112, 113, 5_000], "key-2025": [128, 200, 1000], "key-192": [144, 145, 500],
         "gcm-256": [0, 100, 4096, 5_000], "gcm-128": [150, 151, 333], "gcm-192": [190, 191, 2000],
         "sb-1": [0, 148, 149, 700, 5_000]}


def main():
    keys = {}
    resources = []
    for names, providers in CONFIG:
        entry = {"resources": names, "providers": []}
        for provider, spec in providers:
            if provider == "identity":
                entry["providers"].append({"identity": {}})
            elif provider == "kms":
                entry["providers"].append({"kms": dict(spec)})
            else:
                listed = []
                for name, size in spec:
                    keys[name] = (provider, os.urandom(size), "Secret" if names == ["secrets"] else "ConfigMap")
                    listed.append({"name": name, "secret": base64.b64encode(keys[name][1]).decode()})
                entry["providers"].append({provider: {"keys": listed}})
        resources.append(entry)
    config = {"apiVersion": "apiserver.config.k8s.io/v1", "kind": "EncryptionConfiguration", "resources": resources}

    vectors = []
    for name, (provider, key, kind) in keys.items():
        resource = "secrets" if kind == "Secret" else "configmaps"
        for i, size in enumerate(SIZES[name]):
            obj = f"{name}-{i}"
            etcd_key = f"/registry/{resource}/team-a/{obj}"
            plaintext = b"" if size == 0 else sized(kind, obj, "team-a", size)
            prefix = f"k8s:enc:{provider}:v1:{name}:".encode()
            stored = prefix + CIPHERS[provider](key, plaintext, etcd_key)
            vectors.append({"provider": provider, "keyName": name, "etcdKey": etcd_key,
                            "plaintext": base64.b64encode(plaintext).decode(),
                            "stored": base64.b64encode(stored).decode()})
    # KMS values: what a plugin returns is opaque here; the worker keeps them as stored
    for plugin, version, n in [("gardener-kms", "v2", 2), ("other-kms", "v2", 1), ("legacy-kms", "v1", 1)]:
        for i in range(n):
            etcd_key = f"/registry/secrets/team-a/{plugin}-{i}"
            stored = f"k8s:enc:kms:{version}:{plugin}:".encode() + os.urandom(180)
            vectors.append({"provider": "kms", "kmsVersion": version, "keyName": plugin, "etcdKey": etcd_key,
                            "stored": base64.b64encode(stored).decode()})

    openssl = subprocess.run(["openssl", "version"], capture_output=True, check=True, text=True).stdout.strip()
    tools = {"openssl": openssl, "python": platform.python_version(), "cryptography": cryptography.__version__,
             "pynacl": nacl.__version__, "debianPackages": debian_packages()}
    with open(os.path.join(HERE, "vectors.json"), "w") as f:
        json.dump({"tools": tools, "vectors": vectors}, f, indent=1)
        f.write("\n")
    with open(os.path.join(HERE, "encryption-configuration.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    with open(os.path.join(HERE, "encryption-configuration.yaml"), "w") as f:
        f.write(to_yaml(config))
    print(f"{len(vectors)} vectors; {tools}", file=sys.stderr)


def debian_packages():
    """The Debian packages the ciphers came from (PyNaCl links Debian's libsodium), when dpkg knows them."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n", "openssl", "python3-cryptography",
                              "python3-nacl", "libsodium23"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return []
    return [line for line in out.splitlines() if line]


def to_yaml(config):
    """The configuration as an operator writes it (comments, block style); no YAML library needed."""
    lines = ["# Test keys only: written by make.py together with vectors.json.",
             "apiVersion: " + config["apiVersion"], "kind: " + config["kind"], "resources:"]
    for entry in config["resources"]:
        lines.append("  - resources:")
        lines += [f"      - '{r}'" if r.startswith("*") else f"      - {r}" for r in entry["resources"]]
        lines.append("    providers:")
        for provider in entry["providers"]:
            (kind, spec), = provider.items()
            if kind == "identity":
                lines.append("      - identity: {}")
            elif kind == "kms":
                lines.append("      - kms:")
                lines += [f"          {k}: {v}" for k, v in spec.items()]
            else:
                lines += [f"      - {kind}:", "          keys:"]
                for key in spec["keys"]:
                    lines += [f"            - name: {key['name']}", f"              secret: {key['secret']}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
