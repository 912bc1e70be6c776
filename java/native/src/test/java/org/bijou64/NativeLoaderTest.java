package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader: the bundled library loads and reports this jar's version; a forced, missing or broken
 * library, or a jar without one for this platform, is refused with one warning and a recorded reason, in a
 * child JVM that keeps running. The codec's fallback to Java on top of it, from a jar without the library,
 * is tested in {@code org.bijou64:bijou64} ({@code NativeFallbackTest}).
 */
class NativeLoaderTest {
    /** The warning logged, once, when nothing loads (operators grep for it). */
    private static final String WARNING = "bijou64: native library unavailable, using the pure-Java paths"
            + " (bijou64's Java codec; StreamFusion: Flink's JSON serializer) (";

    /**
     * Run in a child JVM: prints whether the library loaded, why not, and 300 encoded natively (with
     * {@code -Dbijou64.printMappedLibrary=true}, also the files the library is mapped from), then exits 0.
     */
    public static void main(String[] args) throws IOException {
        System.out.println("loaded=" + NativeLibrary.isLoaded());
        System.out.println("version=" + NativeLibrary.version().orElse("none"));
        System.out.println(
                "error=" + NativeLibrary.loadError().map(Throwable::getMessage).orElse("none"));
        if (NativeLibrary.isLoaded()) {
            // Mapping.UNSIGNED is ordinal 0 (org.bijou64:bijou64).
            System.out.println("encoded=" + HexFormat.of().formatHex(NativeCodec.encodeLong(300, 0)));
        }
        if (Boolean.getBoolean("bijou64.printMappedLibrary") && Files.exists(Path.of("/proc/self/maps"))) {
            // Linux: where the library is mapped from (the path, and " (deleted)" once unlinked).
            Files.readAllLines(Path.of("/proc/self/maps")).stream()
                    .filter(line -> line.contains("lib" + NativeLibrary.LIBRARY))
                    .map(line -> line.substring(line.indexOf('/')))
                    .distinct()
                    .forEach(path -> System.out.println("mapped=" + path));
        }
    }

    /** Whether this build bundles the library ({@code -Dbijou64.skipNative=true} builds a jar without it). */
    private static boolean bundled() {
        return !Boolean.getBoolean("bijou64.skipNative");
    }

    private static String child(String... properties) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(properties));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), NativeLoaderTest.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        return output;
    }

    /** target/classes/native/<os>-<arch>: holds the library built for this test run. */
    private static Path bundledDir() throws Exception {
        try (var platforms =
                Files.list(Path.of(NativeLoaderTest.class.getResource("/native").toURI()))) {
            return platforms.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    private static int warnings(String output) {
        return output.split("native library unavailable", -1).length - 1;
    }

    /** The version this jar expects of the library: its Maven version without {@code -SNAPSHOT}. */
    private static String expectedVersion() throws IOException {
        Properties jar = new Properties();
        try (var in = NativeLibrary.class.getResourceAsStream("bijou64.properties")) {
            jar.load(in);
        }
        return jar.getProperty("version").replace("-SNAPSHOT", "");
    }

    @Test
    void bundledLibraryLoadsWithTheJarsVersion() throws IOException {
        if (!bundled()) {
            assertTrue(NativeLibrary.loadError().isPresent(), "a jar without the library cannot load it");
            return;
        }
        assertTrue(
                NativeLibrary.isLoaded(),
                () -> "native library did not load: "
                        + NativeLibrary.loadError().map(Throwable::toString).orElse("?"));
        // Maven 0.2.0 pairs with Cargo 0.2.0 (and a Maven 0.3.0-SNAPSHOT would with Cargo 0.3.0).
        assertEquals(expectedVersion(), NativeLibrary.version().orElseThrow());
        assertTrue(NativeLibrary.loadError().isEmpty());
    }

    @Test
    void theJarNamesThePlatformsItBundles() throws Exception {
        if (!bundled()) {
            assertEquals(List.of(), NativeLibrary.bundledPlatforms(), "a jar without the library names no platform");
            return;
        }
        assertEquals(List.of(bundledDir().getFileName().toString()), NativeLibrary.bundledPlatforms());
    }

    @Test
    void anotherPlatformIsToldWhatTheJarCoversAndHowToBuildTheLibrary() throws Exception {
        String output = child("-Dos.arch=riscv64");
        String covered = bundled() ? String.join(", ", NativeLibrary.bundledPlatforms()) : "no platform";
        assertTrue(output.contains("loaded=false"), output);
        assertTrue(
                output.contains(WARNING + "this jar bundles libkafka_serde_native for " + covered
                        + ", not for linux-riscv64, and no kafka_serde_native in java.library.path"),
                output);
        assertTrue(
                output.contains("build it from the " + expectedVersion()
                        + " sources (cargo build --release -p kafka-serde-native) and pass -Dbijou64.native.path="),
                output);
        assertEquals(1, warnings(output), output);
    }

    @Test
    void theExtractedCopyIsDeletedOnceLoaded(@TempDir Path dir) throws Exception {
        if (!bundled()) {
            return; // no native library in this build
        }
        String output = child("-Djava.io.tmpdir=" + dir, "-Dbijou64.printMappedLibrary=true");
        assertTrue(output.contains("loaded=true"), output);
        assertTrue(output.contains("encoded=f834"), output);
        // One INFO line: the version and the resource it came from (the jar, or here the build's classes).
        assertEquals(1, output.split(" loaded from ", -1).length - 1, output);
        assertTrue(
                output.contains("INFO org.bijou64.NativeLibrary - bijou64: native library libkafka_serde_native "
                        + expectedVersion() + " loaded from file:"
                        + bundledDir().toRealPath() + "/"),
                output);
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the extracted copy must not stay in java.io.tmpdir");
        }
        if (Files.exists(Path.of("/proc/self/maps"))) {
            // Linux: the child had the library mapped from the unlinked file while it ran.
            assertTrue(output.contains("mapped=" + dir.toRealPath()) && output.contains(" (deleted)"), output);
        }
    }

    @Test
    void useJavaPropertyLoadsNothing() throws Exception {
        String output = child("-Dbijou64.useJava=true");
        assertTrue(output.contains("loaded=false"), output);
        assertTrue(output.contains("version=none"), output);
        assertTrue(output.contains("error=native library not loaded: -Dbijou64.useJava=true"), output);
        assertEquals(0, warnings(output), output); // asked for, so not warned about
        assertTrue(
                output.contains("INFO org.bijou64.NativeLibrary - bijou64: native library not loaded, pure-Java paths"
                        + " requested by -Dbijou64.useJava=true"),
                output);
    }

    @Test
    void missingLibraryIsRefusedWithOneWarning(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("no-such-library.so");
        String output = child("-Dbijou64.native.path=" + missing);
        assertTrue(output.contains("loaded=false"), output);
        assertTrue(output.contains("WARN org.bijou64.NativeLibrary - " + WARNING), output);
        assertTrue(output.contains("error=") && output.contains(missing.toString()), output);
        assertEquals(1, warnings(output), output);
    }

    @Test
    void explicitPathLoadsThatFile(@TempDir Path dir) throws Exception {
        if (!bundled()) {
            return; // no native library in this build
        }
        Path copy = dir.resolve("copy-of-" + System.mapLibraryName(NativeLibrary.LIBRARY));
        try (var libraries = Files.list(bundledDir())) {
            Files.copy(libraries.findFirst().orElseThrow(), copy);
        }
        String output = child("-Dbijou64.native.path=" + copy);
        assertTrue(output.contains("loaded=true"), output);
        assertTrue(output.contains("error=none"), output);
        assertTrue(output.contains("encoded=f834"), output);
        assertTrue(
                output.contains("INFO org.bijou64.NativeLibrary - bijou64: native library libkafka_serde_native "
                        + expectedVersion() + " loaded from " + copy + " (-Dbijou64.native.path)"),
                output);
    }

    @Test
    void bundledLibraryThatCannotBeExtractedFallsBackToTheLibraryPath() throws Exception {
        if (!bundled()) {
            return; // no native library in this build
        }
        String output = child("-Djava.io.tmpdir=/nonexistent-bijou64-dir", "-Djava.library.path=" + bundledDir());
        assertTrue(output.contains("loaded=true"), output);
        assertTrue(output.contains("encoded=f834"), output);
        assertEquals(0, warnings(output), output);
        assertTrue(output.contains(expectedVersion() + " loaded from java.library.path"), output);
    }

    @Test
    void bundledLibraryThatCannotBeExtractedNorFoundSaysWhyBothFailed() throws Exception {
        if (!bundled()) {
            return; // nothing bundled: the error is java.library.path's alone
        }
        String output =
                child("-Djava.io.tmpdir=/nonexistent-bijou64-dir", "-Djava.library.path=/nonexistent-bijou64-dir");
        assertTrue(output.contains("loaded=false"), output);
        assertTrue(output.contains("error=bundled library failed ("), output);
        assertEquals(1, warnings(output), output);
    }

    @Test
    void emptyNativePathMeansUnset() throws Exception {
        String output = child("-Dbijou64.native.path=");
        assertTrue(output.contains("loaded=" + NativeLibrary.isLoaded()), output);
    }

    @Test
    void brokenLibraryIsRefusedWithoutACrash(@TempDir Path dir) throws Exception {
        Path garbage = dir.resolve("libkafka_serde_native.so");
        Files.write(garbage, "this is not an ELF file".getBytes(StandardCharsets.US_ASCII));
        String output = child("-Dbijou64.native.path=" + garbage);
        assertTrue(output.contains("loaded=false"), output);
        assertTrue(output.contains("native library unavailable"), output);
        assertEquals(1, warnings(output), output);
    }
}
