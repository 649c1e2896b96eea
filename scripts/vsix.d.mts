export interface ZipEntry {
  name: string;
  size: number;
  compressedSize: number;
  method: number;
  localHeader: number;
}
export declare function listZip(file: string): ZipEntry[];
export declare function readZipEntry(file: string, name: string): Buffer;
