package org.bijou64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The codec over the loader of {@code org.bijou64:kafka-serde-native}: with the bundled library it reports
 * the library's version; a forced, missing or broken library, or a kafka-serde-native jar without one, falls
 * back to Java with one warning, in a child JVM that keeps running and encodes the same bytes. The loader's own rules are tested with it
 * ({@code NativeLoaderTest}).
 */
class NativeFallbackTest {
    /** Run in a child JVM: prints the implementation and one encoding, then exits 0. */
    public static void main(String[] args) {
        System.out.println("implementation=" + Bijou64.implementation());
        System.out.println("encoded=" + java.util.HexFormat.of().formatHex(Bijou64.encode(300)));
        System.out.println("error=" + Bijou64.nativeLoadError().map(Throwable::getMessage).orElse("none"));
    }

    private static String child(String... properties) throws IOException, InterruptedException {
        return childOnClassPath(System.getProperty("java.class.path"), properties);
    }

    private static String childOnClassPath(String classPath, String... properties)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(properties));
        command.addAll(List.of("-cp", classPath, NativeFallbackTest.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("encoded=f834"), output);
        return output;
    }

    /** Where kafka-serde-native is on this class path: its jar or, in an IDE, its classes folder. */
    private static Path nativeModuleLocation() throws Exception {
        return Path.of(NativeLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * Copies the library bundled in kafka-serde-native ({@code native/<os>-<arch>/}) into {@code dir}, as a
     * {@code java.library.path} for a child JVM.
     */
    private static void copyBundledLibrary(Path dir) throws Exception {
        Path location = nativeModuleLocation();
        String name = System.mapLibraryName(NativeLibrary.LIBRARY);
        try (FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location)) {
            Path root = jar == null ? location : jar.getPath("/");
            try (Stream<Path> libraries = Files.walk(root.resolve("native"))) {
                Path library = libraries.filter(file -> file.getFileName().toString().equals(name))
                        .findFirst().orElseThrow();
                Files.copy(library, dir.resolve(name));
            }
        }
    }

    /**
     * The kafka-serde-native jar as a platform it was not built for sees it: everything but {@code native/}
     * (the libraries and {@code platforms.txt}), written to {@code dir}.
     */
    private static Path jarWithoutTheLibrary(Path dir) throws Exception {
        Path location = nativeModuleLocation();
        Path stripped = dir.resolve("kafka-serde-native-without-library.jar");
        try (FileSystem source = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location);
                FileSystem target = FileSystems.newFileSystem(stripped, Map.of("create", "true"))) {
            Path root = source == null ? location : source.getPath("/");
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    String entry = root.relativize(file).toString().replace(File.separatorChar, '/');
                    if (!entry.startsWith("native/")) {
                        Path copy = target.getPath("/" + entry);
                        Files.createDirectories(copy.getParent());
                        Files.copy(file, copy);
                    }
                }
            }
        }
        return stripped;
    }

    @Test
    void bundledLibraryLoadsWithTheJarsVersion() throws IOException {
        if (Implementations.all().contains(Implementation.NATIVE)) {
            java.util.Properties jar = new java.util.Properties();
            try (var in = NativeLibrary.class.getResourceAsStream("bijou64.properties")) {
                jar.load(in);
            }
            // Maven 0.2.0 pairs with Cargo 0.2.0 (and a Maven 0.3.0-SNAPSHOT would with Cargo 0.3.0).
            assertEquals(jar.getProperty("version").replace("-SNAPSHOT", ""), NativeLibrary.version().orElseThrow());
            assertEquals(NativeLibrary.version(), Bijou64.nativeVersion());
            assertTrue(Bijou64.nativeLoadError().isEmpty());
        }
    }

    @Test
    void aJarWithoutTheLibraryEncodesInJavaAndSaysWhatItCovers(@TempDir Path dir) throws Exception {
        Path location = nativeModuleLocation();
        Path stripped = jarWithoutTheLibrary(dir);
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().normalize().equals(location.normalize()) ? stripped.toString() : entry)
                .collect(Collectors.joining(File.pathSeparator));
        assertTrue(classPath.contains(stripped.toString()), classPath);
        String output = childOnClassPath(classPath);
        assertTrue(output.contains("implementation=JAVA"), output);
        assertTrue(output.contains("this jar bundles libkafka_serde_native for no platform"), output);
        assertTrue(output.contains("cargo build --release -p kafka-serde-native"), output);
        assertEquals(1, output.split("native library unavailable", -1).length - 1, output);
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
