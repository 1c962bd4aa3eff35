package io.etcdworkers.integration;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The import rules of the layers (docs/architecture.md#parts), checked on the compiled classes of
 * every module (their main code: tests may reach across). The modules' dependencies keep most of
 * them already; these also hold where packages share a module (the engines in rebuild) and say
 * why in their failure. A rule that matches no class fails too, so a renamed package cannot make
 * one pass by checking nothing.
 */
@AnalyzeClasses(packages = LayerRulesTest.PROJECT, importOptions = ImportOption.DoNotIncludeTests.class)
class LayerRulesTest {
    static final String PROJECT = "io.etcdworkers";
    private static final String ENGINES = "the engines meet only at the engine seam (rebuild.engine)";
    private static final String PROGRAM = "a worker is a program on top of the layers, not one of them";

    @ArchTest
    static final ArchRule BOLT_IMPORTS_NOTHING_OF_THE_PROJECT = noClasses()
            .that()
            .resideInAPackage(pkg("bolt"))
            .should()
            .dependOnClassesThat(resideInAPackage(pkg("")).and(not(resideInAPackage(pkg("bolt")))))
            .because("the bbolt format is a library of its own, with no dependencies");

    @ArchTest
    static final ArchRule STORES_IMPORT_NO_FORMAT_ETCD_OR_REBUILD = noClasses()
            .that()
            .resideInAPackage(pkg("store"))
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(pkg("format"), pkg("etcd"), pkg("rebuild"))
            .because("a store moves objects; what they mean is the format's and the rebuild's");

    @ArchTest
    static final ArchRule THE_OFFLINE_ENGINE_IMPORTS_NO_REPLAY =
            doesNotImport("rebuild.offline", "rebuild.replay", ENGINES);

    @ArchTest
    static final ArchRule THE_REPLAY_ENGINE_IMPORTS_NO_OFFLINE =
            doesNotImport("rebuild.replay", "rebuild.offline", ENGINES);

    @ArchTest
    static final ArchRule NOTHING_BELOW_THE_RESTORE_KNOWS_IT = nothingOutsideImports("restore", PROGRAM);

    @ArchTest
    static final ArchRule NOTHING_BELOW_THE_COMPACTION_KNOWS_IT = nothingOutsideImports("compaction", PROGRAM);

    @ArchTest
    static final ArchRule THE_LAUNCHER_IMPORTS_NO_WORKER_CODE = classes()
            .that()
            .resideInAPackage(pkg("launcher"))
            .should()
            .onlyDependOnClassesThat(
                    resideOutsideOfPackage(pkg("")).or(resideInAnyPackage(pkg("launcher"), pkg("contract"))))
            .because("the launcher and the workers share the contract only (the workers bring jetcd and the SDKs)");

    @ArchTest
    static final ArchRule THE_PACKAGES_HAVE_NO_CYCLES =
            slices().matching(PROJECT + ".(**)").should().beFreeOfCycles();

    /** The project's package {@code name} and those below it ({@code ""}: the whole project). */
    private static String pkg(String name) {
        return name.isEmpty() ? PROJECT + ".." : PROJECT + "." + name + "..";
    }

    private static ArchRule doesNotImport(String from, String to, String because) {
        return noClasses()
                .that()
                .resideInAPackage(pkg(from))
                .should()
                .dependOnClassesThat()
                .resideInAPackage(pkg(to))
                .because(because);
    }

    private static ArchRule nothingOutsideImports(String name, String because) {
        return noClasses()
                .that()
                .resideOutsideOfPackage(pkg(name))
                .should()
                .dependOnClassesThat()
                .resideInAPackage(pkg(name))
                .because(because);
    }
}
