import Foundation
import Hummingbird

/// The OpenAPI 3.1 document of the API, written by hand and kept here, in the binary (no resource file
/// to install beside it); served at `/api/openapi.json`. `HTTPServiceTests.OpenAPITests` holds every
/// route against it both ways, validates it (openapi-spec-validator) and runs schemathesis from it.
public enum OpenAPIDocument {
    public static let data = Data(json.utf8)

    static func response() -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    private static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "onair",
    "version": "1.0.0",
    "description": "The HTTP API of `onair daemon --http`: stations, jobs, schedule, recordings, status and live events. Errors are `{\"error\": \"\u2026\"}` with 400 (malformed request), 401 (no login: once `onair web password` or `onair web token create` has set a credential, send `Authorization: Bearer TOKEN` or the login cookie of `/login`), 403 (a request with the login cookie that changes something without the session's `X-CSRF-Token`), 404 (no such item), 405 (a method the path does not take), 409 (conflict), 422 (well-formed but invalid: an unknown station, a time that does not parse)."
  },
  "servers": [
    {
      "url": "/"
    }
  ],
  "paths": {
    "/api/openapi.json": {
      "get": {
        "operationId": "openapi",
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "The OpenAPI document.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        },
        "security": [
          {}
        ]
      }
    },
    "/api/v1/stations": {
      "get": {
        "operationId": "listStations",
        "summary": "The catalogue, or the stations matching a search.",
        "parameters": [
          {
            "name": "q",
            "in": "query",
            "schema": {
              "type": "string"
            },
            "description": "Words matched against name, id, tags, country and language."
          }
        ],
        "responses": {
          "200": {
            "description": "Stations, best match first.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/StationList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      },
      "post": {
        "operationId": "addStation",
        "summary": "Add a station to the user's catalogue.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/Station"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Added.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Station"
                }
              }
            }
          },
          "400": {
            "description": "Not a station object.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "That id is taken.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The station does not check out.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/stations/{id}": {
      "get": {
        "operationId": "getStation",
        "summary": "One station.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The station.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Station"
                }
              }
            }
          },
          "404": {
            "description": "No such station.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/directory": {
      "get": {
        "operationId": "searchDirectory",
        "summary": "Search the radio-browser.info directory by name.",
        "parameters": [
          {
            "name": "q",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Matching stations, most listened to first.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DirectoryList"
                }
              }
            }
          },
          "400": {
            "description": "No query, or a bad limit.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "502": {
            "description": "The directory could not be reached.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "503": {
            "description": "No directory server is configured.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/directory/add": {
      "post": {
        "operationId": "addDirectoryStation",
        "summary": "Add a directory result to the user's catalogue.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DirectoryStation"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The station as added (its id made from its name).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Station"
                }
              }
            }
          },
          "400": {
            "description": "Not a directory station.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The station does not check out.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/jobs": {
      "get": {
        "operationId": "listJobs",
        "summary": "Runtime jobs with their live state.",
        "responses": {
          "200": {
            "description": "The jobs.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/JobList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      },
      "post": {
        "operationId": "startJob",
        "summary": "Start a relay or a recording.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/JobRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Started.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Job"
                }
              }
            }
          },
          "400": {
            "description": "Not a job request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "An unknown station, a sink that cannot open, a station that cannot be resolved.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/jobs/{id}": {
      "get": {
        "operationId": "getJob",
        "summary": "One job.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The job.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Job"
                }
              }
            }
          },
          "404": {
            "description": "No such job.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      },
      "delete": {
        "operationId": "stopJob",
        "summary": "Stop a job; a recording is finalised first.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The job as it ended.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Job"
                }
              }
            }
          },
          "404": {
            "description": "No such job.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/schedule/rules": {
      "get": {
        "operationId": "listRules",
        "summary": "Rules with their next episode.",
        "responses": {
          "200": {
            "description": "The rules.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RuleList"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      },
      "post": {
        "operationId": "addRule",
        "summary": "Add a rule; the daemon picks it up at once.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RuleRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Added.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "400": {
            "description": "Not a rule request.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "422": {
            "description": "The rule does not check out.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/schedule/rules/{id}": {
      "get": {
        "operationId": "getRule",
        "summary": "One rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      },
      "delete": {
        "operationId": "deleteRule",
        "summary": "Delete a rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/schedule/rules/{id}/pause": {
      "post": {
        "operationId": "pauseRule",
        "summary": "Pause a rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/schedule/rules/{id}/resume": {
      "post": {
        "operationId": "resumeRule",
        "summary": "Resume a rule.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Rule"
                }
              }
            }
          },
          "404": {
            "description": "No such rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/schedule/next": {
      "get": {
        "operationId": "nextEpisodes",
        "summary": "The next episodes of the active rules.",
        "parameters": [
          {
            "name": "count",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Upcoming episodes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/UpcomingList"
                }
              }
            }
          },
          "400": {
            "description": "Bad count.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/schedule/episodes": {
      "get": {
        "operationId": "listEpisodes",
        "summary": "Recent episodes with their state and reason.",
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          },
          {
            "name": "rule",
            "in": "query",
            "schema": {
              "type": "integer",
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Episodes.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EpisodeList"
                }
              }
            }
          },
          "400": {
            "description": "Bad limit or rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/recordings": {
      "get": {
        "operationId": "listRecordings",
        "summary": "Finished recordings, newest first, a page at a time.",
        "parameters": [
          {
            "name": "station",
            "in": "query",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "programme",
            "in": "query",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 1000
            }
          },
          {
            "name": "offset",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 0
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Recordings (limit: 100 unless asked).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingList"
                }
              }
            }
          },
          "400": {
            "description": "Bad limit or offset.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/recordings/{id}": {
      "get": {
        "operationId": "getRecording",
        "summary": "A recording with its titles, gaps and chapters.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingDetail"
                }
              }
            }
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      },
      "delete": {
        "operationId": "deleteRecording",
        "summary": "Delete a recording's file and its index entry.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "What was deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingSummary"
                }
              }
            }
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "409": {
            "description": "The file could not be removed.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          }
        }
      }
    },
    "/api/v1/recordings/{id}/keep": {
      "post": {
        "operationId": "keepRecording",
        "summary": "Mark a recording kept: retention (keep, keepDays, --min-free) never deletes it.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The recording, kept.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingSummary"
                }
              }
            }
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      },
      "delete": {
        "operationId": "unkeepRecording",
        "summary": "Let retention delete a kept recording again.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The recording, no longer kept.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RecordingSummary"
                }
              }
            }
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          }
        }
      }
    },
    "/api/v1/recordings/{id}/audio": {
      "get": {
        "operationId": "recordingAudio",
        "summary": "The recording's audio; answers Range (206), If-None-Match and If-Modified-Since (304).",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          },
          {
            "name": "Range",
            "in": "header",
            "schema": {
              "type": "string",
              "examples": [
                "bytes=0-99"
              ]
            }
          },
          {
            "name": "token",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The secret token of this address, as the podcast feeds give it (podcast apps cannot log in)."
          }
        ],
        "responses": {
          "200": {
            "description": "The whole file.",
            "content": {
              "audio/*": {
                "schema": {
                  "type": "string",
                  "contentMediaType": "audio/*"
                }
              }
            }
          },
          "206": {
            "description": "The range asked for.",
            "content": {
              "audio/*": {
                "schema": {
                  "type": "string",
                  "contentMediaType": "audio/*"
                }
              }
            }
          },
          "304": {
            "description": "Not modified."
          },
          "404": {
            "description": "No such recording, or its file is missing.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "416": {
            "description": "The range lies beyond the end."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/recordings/{id}/chapters.json": {
      "get": {
        "operationId": "recordingChapters",
        "summary": "Podcasting 2.0 JSON chapters.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "schema": {
              "type": "integer",
              "minimum": 1,
              "format": "int64"
            }
          },
          {
            "name": "token",
            "in": "query",
            "required": false,
            "schema": {
              "type": "string"
            },
            "description": "The secret token of this address, as the podcast feeds give it (podcast apps cannot log in)."
          }
        ],
        "responses": {
          "200": {
            "description": "Chapters.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PodcastChapters"
                }
              }
            }
          },
          "404": {
            "description": "No such recording.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/status": {
      "get": {
        "operationId": "status",
        "summary": "Active episodes and jobs, next episodes, recent failures, disk free.",
        "responses": {
          "200": {
            "description": "Status.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Status"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    },
    "/api/v1/events": {
      "get": {
        "operationId": "events",
        "summary": "Live events as Server-Sent Events: each `data:` line one JSON object with type (title, gap, reconnect, episode-start, episode-end, job-start, job-stop, recording-deleted), station, title, message, episode, job, at.",
        "responses": {
          "200": {
            "description": "An endless event stream.",
            "content": {
              "text/event-stream": {
                "schema": {
                  "type": "string"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "Error": {
        "type": "object",
        "required": [
          "error"
        ],
        "properties": {
          "error": {
            "type": "string",
            "description": "What went wrong, in a sentence a person can act on."
          }
        }
      },
      "Station": {
        "type": "object",
        "required": [
          "id",
          "name",
          "country",
          "language",
          "timeZone",
          "streams"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^[a-z0-9][a-z0-9-]*$"
          },
          "name": {
            "type": "string",
            "minLength": 1
          },
          "homepage": {
            "type": [
              "string",
              "null"
            ]
          },
          "logo": {
            "type": [
              "string",
              "null"
            ]
          },
          "country": {
            "type": "string",
            "pattern": "^[A-Z]{2}$"
          },
          "language": {
            "type": "string",
            "pattern": "^[a-z]{2,3}$"
          },
          "timeZone": {
            "type": "string",
            "examples": [
              "Europe/London"
            ]
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "charset": {
            "type": [
              "string",
              "null"
            ]
          },
          "guideID": {
            "type": [
              "string",
              "null"
            ]
          },
          "streams": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "required": [
                "url",
                "kind"
              ],
              "properties": {
                "url": {
                  "type": "string",
                  "format": "uri"
                },
                "kind": {
                  "type": "string",
                  "enum": [
                    "icy",
                    "hls",
                    "dash"
                  ]
                },
                "codec": {
                  "type": "string"
                },
                "bitrate": {
                  "type": "integer"
                }
              },
              "additionalProperties": true
            }
          },
          "programmes": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": true
            }
          },
          "preRoll": {
            "type": [
              "number",
              "null"
            ]
          }
        },
        "additionalProperties": true
      },
      "StationList": {
        "type": "object",
        "required": [
          "stations"
        ],
        "properties": {
          "stations": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Station"
            }
          }
        }
      },
      "DirectoryStation": {
        "type": "object",
        "required": [
          "uuid",
          "name",
          "streamURL",
          "kind",
          "languageCodes",
          "tags",
          "lastCheckOK"
        ],
        "properties": {
          "uuid": {
            "type": "string",
            "minLength": 1
          },
          "name": {
            "type": "string",
            "minLength": 1
          },
          "streamURL": {
            "type": "string",
            "format": "uri"
          },
          "kind": {
            "type": "string",
            "enum": [
              "icy",
              "hls",
              "dash"
            ]
          },
          "codec": {
            "type": [
              "string",
              "null"
            ]
          },
          "bitrate": {
            "type": [
              "integer",
              "null"
            ]
          },
          "homepage": {
            "type": [
              "string",
              "null"
            ]
          },
          "favicon": {
            "type": [
              "string",
              "null"
            ]
          },
          "countryCode": {
            "type": [
              "string",
              "null"
            ]
          },
          "languageCodes": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "tags": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "lastCheckOK": {
            "type": "boolean"
          }
        }
      },
      "DirectoryList": {
        "type": "object",
        "required": [
          "stations"
        ],
        "properties": {
          "stations": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DirectoryStation"
            }
          }
        }
      },
      "JobRequest": {
        "type": "object",
        "required": [
          "kind",
          "station"
        ],
        "if": {
          "properties": {
            "kind": {
              "const": "relay"
            }
          }
        },
        "then": {
          "required": [
            "to"
          ]
        },
        "properties": {
          "kind": {
            "type": "string",
            "enum": [
              "relay",
              "record"
            ]
          },
          "station": {
            "type": "string",
            "minLength": 1,
            "description": "A catalogue station id or a stream URL."
          },
          "to": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "string"
            },
            "description": "A relay's sinks, as `onair relay --to` takes them."
          },
          "format": {
            "type": "string"
          },
          "output": {
            "type": "string"
          },
          "splitTracks": {
            "type": "boolean"
          },
          "persist": {
            "type": "boolean"
          }
        }
      },
      "Job": {
        "type": "object",
        "required": [
          "id",
          "kind",
          "station",
          "state",
          "sinks"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "kind": {
            "type": "string",
            "enum": [
              "relay",
              "record"
            ]
          },
          "station": {
            "type": "string"
          },
          "persist": {
            "type": "boolean"
          },
          "state": {
            "type": "string"
          },
          "startedAt": {
            "type": "string",
            "format": "date-time"
          },
          "uptime": {
            "type": "number"
          },
          "sinks": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "sink": {
                  "type": "string"
                },
                "listeners": {
                  "type": [
                    "integer",
                    "null"
                  ]
                }
              }
            }
          },
          "bytes": {
            "type": "integer"
          },
          "title": {
            "type": [
              "string",
              "null"
            ]
          },
          "gaps": {
            "type": "integer"
          },
          "gapSeconds": {
            "type": "number"
          },
          "reconnects": {
            "type": "integer"
          },
          "files": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string"
            }
          },
          "partial": {
            "type": [
              "string",
              "null"
            ]
          },
          "lastError": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "JobList": {
        "type": "object",
        "required": [
          "jobs"
        ],
        "properties": {
          "jobs": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Job"
            }
          }
        }
      },
      "RuleRequest": {
        "type": "object",
        "required": [
          "station"
        ],
        "description": "One of programme, title, series, at, on or cron; at, on and cron need duration.",
        "properties": {
          "station": {
            "type": "string",
            "minLength": 1
          },
          "programme": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "series": {
            "type": "string"
          },
          "at": {
            "type": "string",
            "examples": [
              "fri 22:00"
            ]
          },
          "on": {
            "type": "string",
            "examples": [
              "2026-12-24T18:00:00"
            ]
          },
          "cron": {
            "type": "string"
          },
          "duration": {
            "type": "string",
            "examples": [
              "30m"
            ]
          },
          "timeZone": {
            "type": "string"
          },
          "padBefore": {
            "type": "string"
          },
          "padAfter": {
            "type": "string"
          },
          "format": {
            "type": "string",
            "enum": [
              "copy",
              "mp3",
              "m4a",
              "opus",
              "flac"
            ]
          },
          "output": {
            "type": "string"
          },
          "splitTracks": {
            "type": "boolean"
          },
          "keep": {
            "type": "integer",
            "minimum": 1
          },
          "keepDays": {
            "type": "integer",
            "minimum": 1,
            "description": "Keep the episodes that finished less than this many days ago."
          }
        }
      },
      "Rule": {
        "type": "object",
        "required": [
          "id",
          "station",
          "when",
          "timeZone",
          "paused"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "programme": {
            "type": [
              "string",
              "null"
            ]
          },
          "when": {
            "type": "string"
          },
          "timeZone": {
            "type": "string"
          },
          "padBefore": {
            "type": "string"
          },
          "padAfter": {
            "type": "string"
          },
          "format": {
            "type": "string"
          },
          "output": {
            "type": [
              "string",
              "null"
            ]
          },
          "splitTracks": {
            "type": "boolean"
          },
          "keep": {
            "type": [
              "integer",
              "null"
            ]
          },
          "keepDays": {
            "type": [
              "integer",
              "null"
            ]
          },
          "paused": {
            "type": "boolean"
          },
          "next": {
            "type": [
              "string",
              "null"
            ],
            "format": "date-time"
          },
          "nextLocal": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "RuleList": {
        "type": "object",
        "required": [
          "rules"
        ],
        "properties": {
          "rules": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Rule"
            }
          }
        }
      },
      "UpcomingEpisode": {
        "type": "object",
        "required": [
          "rule",
          "station",
          "start",
          "end"
        ],
        "properties": {
          "rule": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "programme": {
            "type": [
              "string",
              "null"
            ]
          },
          "start": {
            "type": "string",
            "format": "date-time"
          },
          "end": {
            "type": "string",
            "format": "date-time"
          },
          "windowStart": {
            "type": "string",
            "format": "date-time"
          },
          "windowEnd": {
            "type": "string",
            "format": "date-time"
          },
          "timeZone": {
            "type": "string"
          }
        },
        "additionalProperties": true
      },
      "UpcomingList": {
        "type": "object",
        "required": [
          "episodes"
        ],
        "properties": {
          "episodes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/UpcomingEpisode"
            }
          }
        }
      },
      "Episode": {
        "type": "object",
        "required": [
          "ruleID",
          "station",
          "status"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "ruleID": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "windowStart": {
            "type": "string",
            "format": "date-time"
          },
          "windowEnd": {
            "type": "string",
            "format": "date-time"
          },
          "status": {
            "type": "string",
            "description": "scheduled, recording, done, failed or missed"
          },
          "reason": {
            "type": [
              "string",
              "null"
            ]
          },
          "late": {
            "type": "boolean"
          },
          "files": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "additionalProperties": true
      },
      "EpisodeList": {
        "type": "object",
        "required": [
          "episodes"
        ],
        "properties": {
          "episodes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Episode"
            }
          }
        }
      },
      "RecordingSummary": {
        "type": "object",
        "required": [
          "id",
          "station",
          "start",
          "end",
          "duration",
          "size",
          "kept",
          "audio"
        ],
        "properties": {
          "id": {
            "type": "integer"
          },
          "station": {
            "type": "string"
          },
          "stationName": {
            "type": "string"
          },
          "programme": {
            "type": [
              "string",
              "null"
            ]
          },
          "programmeName": {
            "type": [
              "string",
              "null"
            ]
          },
          "episodeTitle": {
            "type": [
              "string",
              "null"
            ]
          },
          "start": {
            "type": "string",
            "format": "date-time"
          },
          "end": {
            "type": "string",
            "format": "date-time"
          },
          "duration": {
            "type": "number"
          },
          "size": {
            "type": "integer"
          },
          "codec": {
            "type": "string"
          },
          "container": {
            "type": "string"
          },
          "gaps": {
            "type": "integer"
          },
          "kept": {
            "type": "boolean",
            "description": "Retention never deletes a kept recording."
          },
          "audio": {
            "type": "string",
            "description": "Path of the audio, which answers range requests."
          }
        }
      },
      "RecordingList": {
        "type": "object",
        "required": [
          "total",
          "recordings"
        ],
        "properties": {
          "total": {
            "type": "integer",
            "description": "How many match, beyond this page."
          },
          "recordings": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/RecordingSummary"
            }
          }
        }
      },
      "Chapter": {
        "type": "object",
        "required": [
          "start",
          "end",
          "title"
        ],
        "properties": {
          "start": {
            "type": "number"
          },
          "end": {
            "type": "number"
          },
          "title": {
            "type": "string"
          }
        }
      },
      "RecordingDetail": {
        "type": "object",
        "required": [
          "recording",
          "titles",
          "gaps",
          "chapters"
        ],
        "properties": {
          "recording": {
            "$ref": "#/components/schemas/RecordingSummary"
          },
          "file": {
            "type": "string"
          },
          "titles": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "title": {
                  "type": "string"
                },
                "start": {
                  "type": "number"
                }
              },
              "additionalProperties": true
            }
          },
          "gaps": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "at": {
                  "type": "number"
                },
                "seconds": {
                  "type": "number"
                }
              }
            }
          },
          "chapters": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Chapter"
            }
          }
        }
      },
      "PodcastChapters": {
        "type": "object",
        "required": [
          "version",
          "chapters"
        ],
        "properties": {
          "version": {
            "type": "string"
          },
          "chapters": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "startTime",
                "title"
              ],
              "properties": {
                "startTime": {
                  "type": "number"
                },
                "title": {
                  "type": "string"
                }
              }
            }
          }
        }
      },
      "Status": {
        "type": "object",
        "required": [
          "daemon",
          "jobs",
          "liveMounts"
        ],
        "properties": {
          "daemon": {
            "type": "object",
            "additionalProperties": true,
            "description": "What `onair status` shows: pid, startedAt, rules, active, next, recentFailures, and retention (minFree, freeBytes, lastDeletions: recording, station, file, size, reason, at)."
          },
          "jobs": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Job"
            }
          },
          "liveMounts": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "diskFree": {
            "type": [
              "integer",
              "null"
            ],
            "description": "Bytes free where recordings go."
          }
        }
      }
    },
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "A token from `onair web token create NAME`."
      },
      "cookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": "onair_session",
        "description": "The login session set by `POST /login` (the web password). Requests that change something also send its CSRF token in `X-CSRF-Token`."
      }
    },
    "responses": {
      "Unauthorized": {
        "description": "Credentials are set and the request has neither a valid bearer token nor a login cookie.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Forbidden": {
        "description": "The login cookie was sent without the session's CSRF token (`X-CSRF-Token`).",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    }
  },
  "security": [
    {},
    {
      "bearer": []
    },
    {
      "cookie": []
    }
  ]
}
"""#
}
