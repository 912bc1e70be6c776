package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The codec over the loader of {@code org.bijou64:kafka-serde-native}: with the bundled library it reports
 * the library's version; a forced, missing or broken library, or a kafka-serde-native jar without one, falls
 * back to Java with one warning, in a child JVM that keeps running and encodes the same bytes (the stripped jar
 * and the child come from {@link WithoutTheLibrary}). The loader's own rules are tested with it
 * ({@code NativeLoaderTest}).
 */
class NativeFallbackTest {
    /** Run in a child JVM: prints the implementation and one encoding, then exits 0. */
    public static void main(String[] args) {
        System.out.println("implementation=" + Bijou64.implementation());
        System.out.println("encoded=" + java.util.HexFormat.of().formatHex(Bijou64.encode(300)));
        System.out.println(
                "error=" + Bijou64.nativeLoadError().map(Throwable::getMessage).orElse("none"));
    }

    private static String child(String... properties) throws IOException, InterruptedException {
        return childOnClassPath(System.getProperty("java.class.path"), properties);
    }

    private static String childOnClassPath(String classPath, String... properties)
            throws IOException, InterruptedException {
        String output = WithoutTheLibrary.run(classPath, List.of(properties), NativeFallbackTest.class);
        assertTrue(output.contains("encoded=f834"), output);
        return output;
    }

    /**
     * Copies the library bundled in kafka-serde-native ({@code native/<os>-<arch>/}) into {@code dir}, as a
     * {@code java.library.path} for a child JVM.
     */
    private static void copyBundledLibrary(Path dir) throws Exception {
        Path location = WithoutTheLibrary.nativeModuleLocation();
        String name = System.mapLibraryName(NativeLibrary.LIBRARY);
        try (FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location)) {
            Path root = jar == null ? location : jar.getPath("/");
            try (Stream<Path> libraries = Files.walk(root.resolve("native"))) {
                Path library = libraries
                        .filter(file -> file.getFileName().toString().equals(name))
                        .findFirst()
                        .orElseThrow();
                Files.copy(library, dir.resolve(name));
            }
        }
    }

    @Test
    void bundledLibraryLoadsWithTheJarsVersion() throws IOException {
        if (Implementations.all().contains(Implementation.NATIVE)) {
            java.util.Properties jar = new java.util.Properties();
            try (var in = NativeLibrary.class.getResourceAsStream("bijou64.properties")) {
                jar.load(in);
            }
            // Maven 0.2.0 pairs with Cargo 0.2.0 (and a Maven 0.3.0-SNAPSHOT would with Cargo 0.3.0).
            assertEquals(
                    jar.getProperty("version").replace("-SNAPSHOT", ""),
                    NativeLibrary.version().orElseThrow());
            assertEquals(NativeLibrary.version(), Bijou64.nativeVersion());
            assertTrue(Bijou64.nativeLoadError().isEmpty());
        }
    }

    @Test
    void aJarWithoutTheLibraryEncodesInJavaAndSaysWhatItCovers(@TempDir Path dir) throws Exception {
        String output = childOnClassPath(WithoutTheLibrary.classPath(dir));
        assertTrue(output.contains("implementation=JAVA"), output);
        WithoutTheLibrary.assertOneWarningNamingCoverage(output);
    }

    @Test
    void useJavaPropertyForcesJava() throws Exception {
        String output = child("-Dbijou64.useJava=true");
        assertTrue(output.contains("implementation=JAVA"), output);
        assertTrue(output.contains("bijou64.useJava=true"), output);
    }

    @Test
    void missingLibraryFallsBackWithOneWarning(@TempDir Path dir) throws Exception {
        String output = child("-Dbijou64.native.path=" + dir.resolve("no-such-library.so"));
        assertTrue(output.contains("implementation=JAVA"), output);
        assertEquals(1, output.split("native library unavailable", -1).length - 1, output);
    }

    @Test
    void bundledLibraryThatCannotBeExtractedFallsBackToTheLibraryPath(@TempDir Path dir) throws Exception {
        if (!Implementations.all().contains(Implementation.NATIVE)) {
            return; // no native library in this build
        }
        Path libraryDir = Files.createDirectory(dir.resolve("library-path"));
        copyBundledLibrary(libraryDir);
        String output = child("-Djava.io.tmpdir=/nonexistent-bijou64-dir", "-Djava.library.path=" + libraryDir);
        assertTrue(output.contains("implementation=AUTO"), output);
    }

    @Test
    void emptyNativePathMeansUnset() throws Exception {
        String output = child("-Dbijou64.native.path=");
        assertTrue(output.contains("implementation=" + Bijou64.implementation()), output);
    }

    @Test
    void brokenLibraryFallsBackWithoutACrash(@TempDir Path dir) throws Exception {
        Path garbage = dir.resolve("libkafka_serde_native.so");
        Files.write(garbage, "this is not an ELF file".getBytes(StandardCharsets.US_ASCII));
        String output = child("-Dbijou64.native.path=" + garbage);
        assertTrue(output.contains("implementation=JAVA"), output);
        assertTrue(output.contains("native library unavailable"), output);
    }
}
