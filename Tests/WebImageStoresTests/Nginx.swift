import Foundation

/// A real nginx (Debian's `nginx-light`, installed by `make test`) with a config written by the test, run in the
/// foreground as a child process under a temporary prefix.
struct Nginx {
    let process: LocalProcess
    let config: URL

    static let executable = "/usr/sbin/nginx"

    /// Starts nginx with `http` as the body of its `http { }` block and waits until `readyURL` answers. The master
    /// process stays in the foreground (`daemon off`), so ``reload(http:)`` can signal it.
    static func start(http: String, readyURL: String) async throws -> Nginx {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw LocalProcessError.missing("\(executable): run `make test`, which installs nginx-light")
        }
        let directory = try LocalProcess.temporaryDirectory("nginx")
        let path = directory.appendingPathComponent("nginx.conf")
        try write(http: http, to: path, in: directory)
        let process = try LocalProcess.start(
            executable, ["-c", path.path, "-p", directory.path], in: directory, log: "nginx")
        do {
            try await LocalProcess.waitUntilAnswering(readyURL, seconds: 10)
        } catch {
            Nginx(process: process, config: path).stop()
            throw error
        }
        return Nginx(process: process, config: path)
    }

    /// Stops nginx and its workers (SIGTERM to the master, which waits for its workers; SIGKILL would orphan them).
    func stop() {
        if process.process.isRunning { kill(process.process.processIdentifier, SIGTERM) }
        process.process.waitUntilExit()
    }

    /// Rewrites the `http { }` body and reloads (SIGHUP: new workers take the new config, old ones finish).
    func reload(http: String) async throws {
        try Self.write(http: http, to: config, in: process.directory)
        kill(process.process.processIdentifier, SIGHUP)
        // nginx answers with the old workers until the new ones run; give the reload a moment to take.
        try await Task.sleep(for: .milliseconds(500))
    }

    private static func write(http: String, to path: URL, in directory: URL) throws {
        let temp = directory.appendingPathComponent("tmp").path
        let config = """
            daemon off;
            master_process on;
            user root;
            worker_processes 1;
            pid \(directory.path)/nginx.pid;
            error_log \(directory.path)/error.log warn;
            events { worker_connections 512; }
            http {
                access_log off;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
            \(http)
            }
            """
        try FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
        try Data(config.utf8).write(to: path)
    }
}
