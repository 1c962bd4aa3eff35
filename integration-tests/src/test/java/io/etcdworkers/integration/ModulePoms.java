package io.etcdworkers.integration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** The checkout's modules as their pom.xml files name them: the root's modules, the profiles' too. */
final class ModulePoms {
    /** The checkout's root: this module's parent (Maven runs the tests in the module's dir). */
    static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    /** One module: its artifactId, its dir and its parsed pom. */
    record Module(String artifactId, Path dir, Element project) {
        /** The plugin of this artifactId among build/plugins, if the module declares it. */
        Optional<Element> buildPlugin(String artifactId) {
            return child(project, "build").flatMap(b -> child(b, "plugins")).stream()
                    .flatMap(p -> children(p, "plugin").stream())
                    .filter(p -> text(p, "artifactId").equals(artifactId))
                    .findFirst();
        }

        /** Every dependency's groupId:artifactId with its scope ("compile" when it names none). */
        List<Dependency> dependencies() {
            return child(project, "dependencies").stream()
                    .flatMap(d -> children(d, "dependency").stream())
                    .map(d -> new Dependency(
                            text(d, "groupId"),
                            text(d, "artifactId"),
                            text(d, "scope").isEmpty() ? "compile" : text(d, "scope")))
                    .toList();
        }

        /** The files under src/test/java, as paths relative to it ({@code io/etcdworkers/...}). */
        List<Path> testSources() {
            Path tests = dir.resolve("src/test/java");
            if (!Files.isDirectory(tests)) {
                return List.of();
            }
            try (Stream<Path> files = Files.walk(tests)) {
                return files.filter(Files::isRegularFile).map(tests::relativize).toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    record Dependency(String groupId, String artifactId, String scope) {}

    private ModulePoms() {}

    /** Every module the root pom names, in its order, the profiles' modules last. */
    static List<Module> all() {
        Element root = parse(ROOT.resolve("pom.xml"));
        List<String> names = new ArrayList<>(modules(root));
        child(root, "profiles").stream()
                .flatMap(p -> children(p, "profile").stream())
                .forEach(profile -> modules(profile).stream()
                        .filter(m -> !names.contains(m))
                        .forEach(names::add));
        return names.stream()
                .map(name -> {
                    Path dir = ROOT.resolve(name);
                    Element project = parse(dir.resolve("pom.xml"));
                    return new Module(text(project, "artifactId"), dir, project);
                })
                .toList();
    }

    static Module named(String artifactId) {
        return all().stream()
                .filter(m -> m.artifactId().equals(artifactId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no module " + artifactId));
    }

    static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                found.add(e);
            }
        }
        return found;
    }

    static Optional<Element> child(Element parent, String name) {
        return children(parent, name).stream().findFirst();
    }

    static String text(Element parent, String name) {
        return child(parent, name).map(e -> e.getTextContent().strip()).orElse("");
    }

    /** Every element of this name at any depth below {@code parent}. */
    static List<Element> descendants(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        var list = parent.getElementsByTagName(name);
        for (int i = 0; i < list.getLength(); i++) {
            found.add((Element) list.item(i));
        }
        return found;
    }

    private static List<String> modules(Element parent) {
        return child(parent, "modules").stream()
                .flatMap(m -> children(m, "module").stream())
                .map(m -> m.getTextContent().strip())
                .toList();
    }

    private static Element parse(Path pom) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Document document = factory.newDocumentBuilder().parse(pom.toFile());
            return document.getDocumentElement();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("cannot read " + pom + ": " + e.getMessage(), e);
        }
    }
}
